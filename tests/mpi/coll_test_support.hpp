// Shared by the collective tests: every algorithm of an operation is forced in turn through the
// environment (SCOMM_COLL_<OPERATION>, read by SCOMM_Init), on communicators that have an MPI
// twin with the same members, so each result is compared with the real MPI collective's.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "scomm.h"
#include "scomm_fixture.hpp"

// A scomm communicator and an MPI communicator with the same members in the same order.
struct CommPair {
  SCOMM_Comm scomm = SCOMM_COMM_NULL;
  MPI_Comm mpi = MPI_COMM_NULL;
  std::string name;
};

// Runs with SCOMM_COLL_<operation>=<algorithm> set for SCOMM_Init ("" = the selection table).
// "multilevel" runs on emulated levels: sites of 4 consecutive world ranks, machines of 2 (the
// parity split's levels are then not contiguous rank ranges). A suffix "+own-cores" tells
// SCOMM_Init that the ranks have cores of their own (SCOMM_CORES_SHARED=0), for the schedules it
// picks only then, whatever the test machine's cores.
class CollTest : public ScommTest, public ::testing::WithParamInterface<std::string> {
 protected:
  virtual const char* variable() const = 0;

  void SetUp() override {
    const std::string& param = GetParam();
    const std::size_t plus = param.find('+');
    const std::string algorithm = param.substr(0, plus);
    if (!algorithm.empty()) setenv(variable(), algorithm.c_str(), 1);
    if (algorithm == "multilevel") setenv("SCOMM_TOPO_BLOCKS", "site=4,machine=2", 1);
    if (algorithm == "native") setenv("SCOMM_COLL_BARRIER", "native", 1);
    if (plus != std::string::npos && param.substr(plus) == "+own-cores")
      setenv("SCOMM_CORES_SHARED", "0", 1);
    ScommTest::SetUp();
    unsetenv(variable());
    unsetenv("SCOMM_TOPO_BLOCKS");
    unsetenv("SCOMM_COLL_BARRIER");
    unsetenv("SCOMM_CORES_SHARED");
    make_pairs();
    // A nonblocking call runs natively once the communicator has its MPI twin (before, the
    // table's algorithm: making the twin waits for every member), which a blocking native
    // barrier makes.
    if (algorithm != "native") return;
    for (const CommPair& pair : pairs_) {
      ASSERT_EQ(SCOMM_Barrier(pair.scomm), SCOMM_SUCCESS);
    }
  }
  void TearDown() override {
    for (CommPair& pair : pairs_) {
      if (pair.scomm != SCOMM_COMM_WORLD && pair.scomm != SCOMM_COMM_NULL)
        SCOMM_Comm_free(&pair.scomm);
      if (pair.mpi != MPI_COMM_WORLD && pair.mpi != MPI_COMM_NULL) MPI_Comm_free(&pair.mpi);
    }
    ScommTest::TearDown();
  }

  // The world; the odd/even halves (a collective split); the first ceil(p/2) ranks reversed
  // (a local range with a negative stride). Each rank gets the pairs it is a member of.
  void make_pairs() {
    pairs_.push_back({SCOMM_COMM_WORLD, MPI_COMM_WORLD, "world"});
    CommPair parity{SCOMM_COMM_NULL, MPI_COMM_NULL, "parity"};
    SCOMM_Comm_split(SCOMM_COMM_WORLD, world_rank_ % 2, world_rank_, &parity.scomm);
    MPI_Comm_split(MPI_COMM_WORLD, world_rank_ % 2, world_rank_, &parity.mpi);
    pairs_.push_back(parity);
    const int half = (world_size_ + 1) / 2;
    CommPair reversed{SCOMM_COMM_NULL, MPI_COMM_NULL, "reversed-half"};
    SCOMM_Comm_create_range(SCOMM_COMM_WORLD, half - 1, 0, -1, &reversed.scomm);
    MPI_Comm_split(MPI_COMM_WORLD, world_rank_ < half ? 0 : MPI_UNDEFINED, -world_rank_,
                   &reversed.mpi);
    if (reversed.scomm != SCOMM_COMM_NULL) pairs_.push_back(reversed);
  }

  std::vector<CommPair> pairs_;
};

// Process counts, message sizes and roots to sweep.
inline std::vector<int> test_counts() {
  return {0, 1, 7, 1000, 40000};
}

// The roots to sweep on a communicator of `size`: every one up to 8 ranks; beyond, the first
// two, a middle one and the last two (a tree rotated onto each end and its middle), which keeps
// the 16-rank runs on two oversubscribed cores to seconds.
inline std::vector<int> test_roots(int size) {
  if (size > 8) return {0, 1, size / 2, size - 2, size - 1};
  std::vector<int> all(static_cast<std::size_t>(size));
  std::iota(all.begin(), all.end(), 0);
  return all;
}

inline int size_of(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  return size;
}

inline int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// World ranks 0 and 1 as a communicator whose errors are returned, for the tests of failing
// calls; SCOMM_COMM_NULL at the other ranks (and a test failure if it cannot be made).
inline SCOMM_Comm first_pair_returning_errors() {
  SCOMM_Comm pair = SCOMM_COMM_NULL;
  EXPECT_EQ(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, 1, 1, &pair), SCOMM_SUCCESS);
  if (pair != SCOMM_COMM_NULL) SCOMM_Comm_set_errhandler(pair, SCOMM_ERRORS_RETURN);
  return pair;
}

// Deterministic data that differs per rank, element and round.
inline std::vector<int> pattern(int rank, std::size_t n, int salt) {
  std::vector<int> data(n);
  for (std::size_t i = 0; i < n; ++i)
    data[i] = static_cast<int>((static_cast<unsigned>(rank) * 7919u + i * 31u +
                                static_cast<unsigned>(salt) * 104729u) %
                               100003u) -
              50000;
  return data;
}

// A non-commutative operation: composition of affine maps x -> a x + b on pairs of ints
// (mod 2^31 - 1 kept small): (f op g)(x) = g(f(x)), so the order of ranks shows in the result.
inline void compose_affine(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* f = static_cast<int*>(in);
  auto* g = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) {
    const long long a = static_cast<long long>(g[2 * i]) * f[2 * i] % 10007;
    const long long b = (static_cast<long long>(g[2 * i]) * f[2 * i + 1] + g[2 * i + 1]) % 10007;
    g[2 * i] = static_cast<int>(a);
    g[2 * i + 1] = static_cast<int>(b);
  }
}

// The pair type and the non-commutative operation over it; freed by the destructor.
struct AffineOp {
  AffineOp() {
    MPI_Type_contiguous(2, MPI_INT, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(compose_affine, 0, &op);
  }
  ~AffineOp() {
    MPI_Op_free(&op);
    MPI_Type_free(&type);
  }
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
};

// Affine maps with small coefficients, different per rank.
inline std::vector<int> affine_pattern(int rank, std::size_t n) {
  std::vector<int> data(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    data[2 * i] = static_cast<int>((static_cast<unsigned>(rank) * 3u + i) % 17u) + 2;
    data[2 * i + 1] = static_cast<int>((static_cast<unsigned>(rank) * 5u + i * 7u) % 23u);
  }
  return data;
}

// Calls `check(salt, what)`, one blocking collective on `pair` checked against MPI's, repeated
// (replayed, coll/replay.hpp), then with a nonblocking barrier in flight and beside a receive of
// any tag that the matching engine holds (the replay steps aside for the kept run), beside one on
// a duplicate (the replay polls for it), then repeated again: salts 0 to 8.
template <typename Check>
void check_replays_beside_the_engine(const CommPair& pair, Check&& check) {
  for (int salt = 0; salt < 4; ++salt) check(salt, "repeated");
  SCOMM_Request barrier = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Ibarrier(pair.scomm, &barrier), SCOMM_SUCCESS);
  check(4, "a barrier in flight");
  ASSERT_EQ(SCOMM_Wait(&barrier, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  int any = -1, rank = -1;
  SCOMM_Comm_rank(pair.scomm, &rank);
  const int mine = 1000 + rank;
  SCOMM_Request receive = SCOMM_REQUEST_NULL, send = SCOMM_REQUEST_NULL;
  ASSERT_EQ(SCOMM_Irecv(&any, 1, MPI_INT, SCOMM_ANY_SOURCE, SCOMM_ANY_TAG, pair.scomm, &receive),
            SCOMM_SUCCESS);
  check(5, "a receive of any tag waiting");
  ASSERT_EQ(SCOMM_Isend(&mine, 1, MPI_INT, rank, 7, pair.scomm, &send), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&receive, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&send, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(any, mine) << pair.name;
  // A receive of any tag waiting on a duplicate (on another base communicator, or on the same):
  // the replay polls for it, by MPI calls posted and tested where that is safe.
  SCOMM_Comm other = SCOMM_COMM_NULL;
  ASSERT_EQ(SCOMM_Comm_dup(pair.scomm, &other), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Irecv(&any, 1, MPI_INT, SCOMM_ANY_SOURCE, SCOMM_ANY_TAG, other, &receive),
            SCOMM_SUCCESS);
  check(6, "a receive of any tag waiting on a duplicate");
  ASSERT_EQ(SCOMM_Isend(&mine, 1, MPI_INT, rank, 8, other, &send), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&receive, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  ASSERT_EQ(SCOMM_Wait(&send, SCOMM_STATUS_IGNORE), SCOMM_SUCCESS);
  EXPECT_EQ(any, mine) << pair.name;
  ASSERT_EQ(SCOMM_Comm_free(&other), SCOMM_SUCCESS);
  for (int salt = 7; salt < 9; ++salt) check(salt, "repeated after");
}
