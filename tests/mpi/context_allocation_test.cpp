// Context allocation between real processes: reductions are MPI_Iallreduce on MPI communicators.
// Every algorithm, blocking and nonblocking, on overlapping communicators started in a different
// order on every rank: members agree on each id and no rank holds an id twice.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "scomm/comm/mpi_reducer.hpp"
#include "scomm/context/allocation.hpp"

namespace scomm::context {
namespace {

using comm::MpiReducer;

// The communicators this rank belongs to: the world and one from each of several splits.
std::vector<MPI_Comm> overlapping_communicators() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<MPI_Comm> comms(5);
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &comms[1]);
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &comms[2]);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 3, -rank, &comms[3]);
  MPI_Comm_split(MPI_COMM_WORLD, (rank + 1) / 2, rank, &comms[4]);
  return comms;
}

bool members_agree(MPI_Comm comm, ContextId id) {
  std::int64_t low = id, high = id;
  MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_INT64_T, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_INT64_T, MPI_MAX, comm);
  return low == high;
}

class ContextAllocationTest : public ::testing::TestWithParam<Algorithm> {
 protected:
  void SetUp() override { comms_ = overlapping_communicators(); }
  void TearDown() override {
    for (MPI_Comm& c : comms_) MPI_Comm_free(&c);
  }
  std::vector<MPI_Comm> comms_;
};

TEST_P(ContextAllocationTest, BlockingOnOverlappingCommunicators) {
  ContextPool pool(1 << 16);
  std::set<ContextId> held;
  for (int round = 0; round < 10; ++round)
    for (MPI_Comm comm : comms_) {
      MpiReducer reducer(comm);
      const ContextId id = allocate(GetParam(), pool, reducer);
      EXPECT_TRUE(held.insert(id).second) << "id " << id << " twice";
      EXPECT_TRUE(members_agree(comm, id));
    }
}

TEST_P(ContextAllocationTest, NonblockingStartedInDifferentOrdersEverywhere) {
  // Started in a different order at every rank: each allocation's priority (its communicator's
  // index, the same everywhere) keeps concurrent confirmations from failing in lockstep.
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::mt19937 rng(static_cast<unsigned>(rank) * 7919u + 1);
  ContextPool pool(1 << 16);
  for (int k = 0; k < 20; ++k) {  // members start from different states
    const auto id = static_cast<ContextId>(rng() % 200);
    if (pool.is_free(id)) pool.take(id);
  }
  std::vector<std::size_t> order(comms_.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::unique_ptr<MpiReducer>> reducers;
  std::vector<std::unique_ptr<Allocation>> allocations(comms_.size());
  for (std::size_t c : order) {
    reducers.push_back(std::make_unique<MpiReducer>(comms_[c], MpiReducer::Mode::kNonblocking));
    allocations[c] = start_allocation(GetParam(), pool, *reducers.back(), true, c + 1);
  }
  for (bool done = false; !done;) {
    done = true;
    for (std::size_t c : order) done = allocations[c]->progress() && done;
  }
  std::set<ContextId> held;
  for (std::size_t c = 0; c < comms_.size(); ++c) {
    EXPECT_TRUE(held.insert(allocations[c]->result()).second);
    EXPECT_TRUE(members_agree(comms_[c], allocations[c]->result()));
  }
}

TEST_P(ContextAllocationTest, FreedIdsComeBack) {
  ContextPool pool(1 << 16);
  MpiReducer reducer(comms_[0]);
  const ContextId first = allocate(GetParam(), pool, reducer);
  const ContextId second = allocate(GetParam(), pool, reducer);
  EXPECT_NE(first, second);
  pool.release(first);
  pool.release(second);
  ContextPool tiny(2);
  const ContextId a = allocate(GetParam(), tiny, reducer);
  const ContextId b = allocate(GetParam(), tiny, reducer);
  EXPECT_NE(a, b);
  tiny.release(a);
  EXPECT_EQ(allocate(GetParam(), tiny, reducer), a);  // reused, even by highest-CID
}

INSTANTIATE_TEST_SUITE_P(Algorithms, ContextAllocationTest,
                         ::testing::Values(Algorithm::kVanilla, Algorithm::kBitmask,
                                           Algorithm::kHighest),
                         [](const auto& param_info) {
                           return std::string(algorithm_name(param_info.param));
                         });

}  // namespace
}  // namespace scomm::context
