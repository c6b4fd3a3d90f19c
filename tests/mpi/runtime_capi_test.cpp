// SCOMM_Init / SCOMM_Finalize / SCOMM_Initialized / SCOMM_Finalized / SCOMM_Get_library_version /
// SCOMM_Tag_ub on the real MPI: the published tag limit follows the base MPI's MPI_TAG_UB, and
// calls out of order are errors, not crashes.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "scomm_fixture.hpp"

namespace {

TEST(RuntimeCapiTest, TagLimitFollowsMpiTagUb) {
  int tag_ub = 0;
  EXPECT_EQ(error_class_of(SCOMM_Tag_ub(&tag_ub)), SCOMM_ERR_ARG);  // before SCOMM_Init
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
  EXPECT_EQ(error_class_of(SCOMM_Init()), SCOMM_ERR_ARG);  // twice
  ASSERT_EQ(SCOMM_Tag_ub(&tag_ub), SCOMM_SUCCESS);
  EXPECT_EQ(tag_ub, (1 << 15) - 1 - 256);
  int* mpi_tag_ub = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &mpi_tag_ub, &found);
  ASSERT_TRUE(found);
  EXPECT_GE(std::bit_width(static_cast<std::uint64_t>(*mpi_tag_ub) + 1) - 1, 16)
      << "at least one context prefix bit above the 15 user bits";
  EXPECT_EQ(error_class_of(SCOMM_Tag_ub(nullptr)), SCOMM_ERR_ARG);
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  EXPECT_EQ(error_class_of(SCOMM_Finalize()), SCOMM_ERR_ARG);  // twice
}

// MPI's pattern for a library on top: initialized and not finalized means scomm can be used. A
// new SCOMM_Init starts a life of its own; a failed one changes neither answer.
TEST(RuntimeCapiTest, InitializedAndFinalizedFollowEachLife) {
  const auto state = [] {
    int initialized = -1, finalized = -1;
    EXPECT_EQ(SCOMM_Initialized(&initialized), SCOMM_SUCCESS);
    EXPECT_EQ(SCOMM_Finalized(&finalized), SCOMM_SUCCESS);
    return std::pair{initialized, finalized};
  };
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
  EXPECT_EQ(state(), std::pair(1, 0));
  EXPECT_EQ(error_class_of(SCOMM_Init()), SCOMM_ERR_ARG);
  EXPECT_EQ(state(), std::pair(1, 0));
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  EXPECT_EQ(state(), std::pair(1, 1));
  set_environment_together("SCOMM_BASE_COMMS", "zero");
  EXPECT_EQ(error_class_of(SCOMM_Init()), SCOMM_ERR_ARG);
  set_environment_together("SCOMM_BASE_COMMS", nullptr);
  EXPECT_EQ(state(), std::pair(1, 1));
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
  EXPECT_EQ(state(), std::pair(1, 0));
  EXPECT_EQ(error_class_of(SCOMM_Initialized(nullptr)), SCOMM_ERR_ARG);
  EXPECT_EQ(error_class_of(SCOMM_Finalized(nullptr)), SCOMM_ERR_ARG);
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

// A receive still posted at SCOMM_Finalize is cancelled there: MPI would keep it posted, and
// MPICH gave it the next session's message of its source and tag (into a buffer that may be
// gone), which that session's receive then waited for in vain.
TEST(RuntimeCapiTest, AReceiveLeftPostedAtFinalizeTakesNothingAfterIt) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int from = (rank + size - 1) % size, to = (rank + 1) % size;
  int stale = -1;
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
  SCOMM_Request left = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Irecv(&stale, 1, MPI_INT, from, 3, SCOMM_COMM_WORLD, &left), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
  SCOMM_Comm dup = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &dup), SCOMM_SUCCESS);
  for (const SCOMM_Comm comm : {SCOMM_COMM_WORLD, dup}) {
    const int value = 1000 + rank;
    int got = -1;
    ASSERT_EQ(SCOMM_Sendrecv(&value, 1, MPI_INT, to, 3, &got, 1, MPI_INT, from, 3, comm,
                             SCOMM_STATUS_IGNORE),
              SCOMM_SUCCESS);
    EXPECT_EQ(got, 1000 + from);
  }
  EXPECT_EQ(stale, -1);
  SCOMM_Comm_free(&dup);
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

// The project's version and the base MPI's own words (a C string: Open MPI 4.1 counts its '\0' in
// mpi_length), with or without SCOMM_Init (as MPI's call).
TEST(RuntimeCapiTest, LibraryVersionNamesScommAndItsMpi) {
  char mpi[MPI_MAX_LIBRARY_VERSION_STRING];
  int mpi_length = 0;
  ASSERT_EQ(MPI_Get_library_version(mpi, &mpi_length), MPI_SUCCESS);
  const std::string expected = std::string("scomm ") + SCOMM_PROJECT_VERSION + " on " + mpi;
  for (const bool initialized : {false, true}) {
    if (initialized) {
      ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
    }
    char version[SCOMM_MAX_LIBRARY_VERSION_STRING];
    int length = -1;
    ASSERT_EQ(SCOMM_Get_library_version(version, &length), SCOMM_SUCCESS);
    EXPECT_EQ(std::string(version, static_cast<std::size_t>(length)), expected);
    EXPECT_EQ(std::strlen(version), static_cast<std::size_t>(length));
    EXPECT_EQ(error_class_of(SCOMM_Get_library_version(nullptr, &length)), SCOMM_ERR_ARG);
    EXPECT_EQ(error_class_of(SCOMM_Get_library_version(version, nullptr)), SCOMM_ERR_ARG);
  }
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
}

TEST(RuntimeCapiTest, BaseCommunicatorCountFromTheEnvironment) {
  set_environment_together("SCOMM_BASE_COMMS", "4");
  EXPECT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
  EXPECT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  for (const char* bad : {"zero", "3", "4097"}) {  // a power of two, 1..4096
    set_environment_together("SCOMM_BASE_COMMS", bad);
    EXPECT_EQ(error_class_of(SCOMM_Init()), SCOMM_ERR_ARG) << bad;
  }
  set_environment_together("SCOMM_BASE_COMMS", nullptr);
}

// Where MPI cannot duplicate the world for every base communicator (it has run out of
// communicators), SCOMM_Init returns the error, instead of going on with null bases or aborting
// the job through the world's handler; once communicators are freed it succeeds. MPICH 4.0 has
// some 2,000 communicators, Open MPI 4.1 some 65,000: MPICH's run tells.
TEST(RuntimeCapiTest, RunningOutOfBaseCommunicatorsIsAnError) {
#if !defined(MPICH)
  GTEST_SKIP() << "the base MPI runs out of communicators too late for a test";
#else
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::vector<MPI_Comm> held;
  for (MPI_Comm comm = MPI_COMM_NULL; held.size() < 100000; held.push_back(comm))
    if (MPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS) break;
  for (int i = 0; i < 4 && !held.empty(); ++i) {  // room for 4 of the 16 bases
    MPI_Comm_free(&held.back());
    held.pop_back();
  }
  set_environment_together("SCOMM_BASE_COMMS", "16");
  EXPECT_NE(SCOMM_Init(), SCOMM_SUCCESS) << "with " << held.size() << " communicators held";
  int size = 0;
  EXPECT_NE(SCOMM_Comm_size(SCOMM_COMM_WORLD, &size), SCOMM_SUCCESS);  // not initialized
  for (MPI_Comm& comm : held) MPI_Comm_free(&comm);
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);  // the bases the failed one made were freed too
  set_environment_together("SCOMM_BASE_COMMS", nullptr);
  int value = 1, sum = 0;
  EXPECT_EQ(SCOMM_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, SCOMM_COMM_WORLD), SCOMM_SUCCESS);
  EXPECT_EQ(sum, world_size());
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#endif
}

TEST(RuntimeCapiTest, DetachedSendsSettingFromTheEnvironment) {
  for (const char* good : {"off", "300:2048", "1:1"}) {
    set_environment_together("SCOMM_DETACHED_SENDS", good);
    EXPECT_EQ(SCOMM_Init(), SCOMM_SUCCESS) << good;
    EXPECT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS) << good;
  }
  for (const char* bad : {"on", "2048:300", "0:100", "300", "300:", "1:2097152", "1:2x"}) {
    set_environment_together("SCOMM_DETACHED_SENDS", bad);
    EXPECT_EQ(error_class_of(SCOMM_Init()), SCOMM_ERR_ARG) << bad;
  }
  set_environment_together("SCOMM_DETACHED_SENDS", nullptr);
}

// Each context storage and allocation algorithm SCOMM_Init can be told to use carries messages
// on overlapping communicators, local and collective, apart; an unknown name is an error.
TEST(RuntimeCapiTest, ContextStorageAndAlgorithmFromTheEnvironment) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (const char* storage : {"array", "fixed", "tree", "radix"}) {
    for (const char* algorithm : {"vanilla", "bitmask", "highest"}) {
      set_environment_together("SCOMM_CONTEXT_STORAGE", storage);
      set_environment_together("SCOMM_CONTEXT_ALGORITHM", algorithm);
      ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS) << storage << ' ' << algorithm;
      std::vector<SCOMM_Comm> comms{SCOMM_COMM_WORLD, SCOMM_COMM_NULL, SCOMM_COMM_NULL,
                                    SCOMM_COMM_NULL};
      SCOMM_Comm_dup(SCOMM_COMM_WORLD, &comms[1]);
      SCOMM_Comm_create_range(comms[1], size - 1, 0, -1, &comms[2]);
      SCOMM_Comm_split(SCOMM_COMM_WORLD, rank % 2, -rank, &comms[3]);
      SCOMM_Comm half = SCOMM_COMM_NULL;  // each rank in its own half: one creation at all
      int reversed_rank = 0;
      SCOMM_Comm_rank(comms[2], &reversed_rank);
      const int lower = size - size / 2;  // the lower half's size
      SCOMM_Comm_create_range(comms[2], reversed_rank < lower ? 0 : lower,
                              reversed_rank < lower ? lower - 1 : size - 1, 1, &half);
      comms.push_back(half);
      expect_rings_apart(comms);
      for (std::size_t i = comms.size(); i-- > 1;) SCOMM_Comm_free(&comms[i]);
      EXPECT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS) << storage << ' ' << algorithm;
    }
  }
  set_environment_together("SCOMM_CONTEXT_STORAGE", "hash");
  EXPECT_EQ(error_class_of(SCOMM_Init()), SCOMM_ERR_ARG);
  set_environment_together("SCOMM_CONTEXT_STORAGE", "radix");
  set_environment_together("SCOMM_CONTEXT_ALGORITHM", "fastest");
  EXPECT_EQ(error_class_of(SCOMM_Init()), SCOMM_ERR_ARG);
  set_environment_together("SCOMM_CONTEXT_STORAGE", nullptr);
  set_environment_together("SCOMM_CONTEXT_ALGORITHM", nullptr);
}

}  // namespace
