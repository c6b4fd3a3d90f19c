// SCOMM_Init / SCOMM_Finalize / SCOMM_Tag_ub on the real MPI: the published tag limit follows
// the base MPI's MPI_TAG_UB, and calls out of order are errors, not crashes.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdlib>

#include "scomm.h"

namespace {

int error_class(int code) {
  int result = -1;
  SCOMM_Error_class(code, &result);
  return result;
}

TEST(RuntimeCapiTest, TagLimitFollowsMpiTagUb) {
  int tag_ub = 0;
  EXPECT_EQ(error_class(SCOMM_Tag_ub(&tag_ub)), SCOMM_ERR_ARG);  // before SCOMM_Init
  ASSERT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
  EXPECT_EQ(error_class(SCOMM_Init()), SCOMM_ERR_ARG);  // twice
  ASSERT_EQ(SCOMM_Tag_ub(&tag_ub), SCOMM_SUCCESS);
  EXPECT_EQ(tag_ub, (1 << 15) - 1 - 256);
  int* mpi_tag_ub = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &mpi_tag_ub, &found);
  ASSERT_TRUE(found);
  EXPECT_GE(std::bit_width(static_cast<std::uint64_t>(*mpi_tag_ub) + 1) - 1, 16)
      << "at least one context prefix bit above the 15 user bits";
  EXPECT_EQ(error_class(SCOMM_Tag_ub(nullptr)), SCOMM_ERR_ARG);
  ASSERT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  EXPECT_EQ(error_class(SCOMM_Finalize()), SCOMM_ERR_ARG);  // twice
}

// Under SimGrid SMPI every simulated rank shares the one process's environment: it changes only
// once all ranks have read it.
void set_environment_together(const char* name, const char* value) {
  MPI_Barrier(MPI_COMM_WORLD);
  setenv(name, value, 1);
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(RuntimeCapiTest, BaseCommunicatorCountFromTheEnvironment) {
  set_environment_together("SCOMM_BASE_COMMS", "4");
  EXPECT_EQ(SCOMM_Init(), SCOMM_SUCCESS);
  EXPECT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS);
  set_environment_together("SCOMM_BASE_COMMS", "zero");
  EXPECT_EQ(error_class(SCOMM_Init()), SCOMM_ERR_ARG);
  MPI_Barrier(MPI_COMM_WORLD);
  unsetenv("SCOMM_BASE_COMMS");
}

TEST(RuntimeCapiTest, DetachedSendsSettingFromTheEnvironment) {
  for (const char* good : {"off", "300:2048", "1:1"}) {
    set_environment_together("SCOMM_DETACHED_SENDS", good);
    EXPECT_EQ(SCOMM_Init(), SCOMM_SUCCESS) << good;
    EXPECT_EQ(SCOMM_Finalize(), SCOMM_SUCCESS) << good;
  }
  for (const char* bad : {"on", "2048:300", "0:100", "300", "300:", "1:2097152", "1:2x"}) {
    set_environment_together("SCOMM_DETACHED_SENDS", bad);
    EXPECT_EQ(error_class(SCOMM_Init()), SCOMM_ERR_ARG) << bad;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  unsetenv("SCOMM_DETACHED_SENDS");
}

}  // namespace
