// The multilevel builders at 10^5 ranks on three levels (sites of 25,600 ranks, nodes of 32,
// sockets of 16), every rank's schedule built and simulated: no deadlock or unmatched message,
// p - 1 messages per tree pass, and one message per site but the root's on level 0. Building a
// rank's schedule is O(depth log runs) plus its children, so this runs in about a second.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "scomm/coll/simulator.hpp"
#include "scomm/topo/allreduce_multilevel.hpp"
#include "scomm/topo/barrier_multilevel.hpp"
#include "scomm/topo/bcast_multilevel.hpp"
#include "scomm/topo/reduce_multilevel.hpp"
#include "test_topologies.hpp"

namespace scomm::topo {
namespace {

constexpr int kRanks = 100'000;
constexpr int kRoot = 12'345;

class MultilevelScale : public ::testing::Test {
 protected:
  MultilevelScale() : model_(level_model(levels_, costs_)) {}

  coll::Simulation simulate(const coll::ScheduleBuilder& build, int root) const {
    coll::Simulation sim = coll::simulate(build, kRanks, root, model_);
    EXPECT_TRUE(sim.ok()) << sim.describe_problems();
    return sim;
  }
  std::int64_t slow_messages(const coll::Simulation& sim) const {
    return sim.messages_per_level[static_cast<std::size_t>(levels_.depth())];
  }

  const Levels levels_ = Levels::blocks({"site", "node", "socket"}, {25'600, 32, 16}, kRanks);
  const LevelCosts costs_ = LevelCosts::defaults(levels_.depth());
  const coll::LevelModel model_;
  const std::int64_t sites_ = levels_.clusters(0);
};

TEST_F(MultilevelScale, Bcast) {
  const auto sim = simulate(
      [&](const coll::Shape& s) { return bcast_multilevel(levels_, costs_, s, 1, 8); }, kRoot);
  EXPECT_EQ(sim.messages, kRanks - 1);
  EXPECT_EQ(slow_messages(sim), sites_ - 1);
  // One site-level message on the critical path; the path's levels add up to its length.
  const auto& critical = sim.critical_messages_per_level;
  EXPECT_EQ(critical[static_cast<std::size_t>(levels_.depth())], 1);
  EXPECT_EQ(std::accumulate(critical.begin(), critical.end(), std::int64_t{0}),
            sim.critical_messages);
}

TEST_F(MultilevelScale, ReduceCommutativeAndInRankOrder) {
  for (bool commutative : {true, false}) {
    const auto sim = simulate(
        [&](const coll::Shape& s) {
          return reduce_multilevel(levels_, costs_, s, 1, 8, false, commutative);
        },
        kRoot);
    // In rank order the tree is rooted at rank 0, which sends the result on to the root (in
    // rank 0's site: no slow message more).
    EXPECT_EQ(sim.messages, kRanks - 1 + (commutative ? 0 : 1));
    EXPECT_EQ(slow_messages(sim), sites_ - 1);
  }
}

TEST_F(MultilevelScale, AllreduceAndBarrier) {
  const auto allreduce = simulate(
      [&](const coll::Shape& s) {
        return allreduce_multilevel(levels_, costs_, s, 1, 8, false, true);
      },
      0);
  EXPECT_EQ(allreduce.messages, 2 * (kRanks - 1));
  EXPECT_EQ(slow_messages(allreduce), 2 * (sites_ - 1));
  const auto barrier =
      simulate([&](const coll::Shape& s) { return barrier_multilevel(levels_, costs_, s); }, 0);
  EXPECT_EQ(barrier.messages, 2 * (kRanks - 1));
  EXPECT_EQ(slow_messages(barrier), 2 * (sites_ - 1));
}

}  // namespace
}  // namespace scomm::topo
