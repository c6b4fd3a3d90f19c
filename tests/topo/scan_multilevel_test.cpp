// The multilevel scan and exscan on every test topology (test_topologies.hpp), every size, empty
// and non-empty vectors, in place and not: every message matched with its size on the cost
// simulator, two tree passes of clusters(0) - 1 messages on level 0 where the levels are
// contiguous, and on symbolic values (value_simulation.hpp) each rank's result is the reduction
// of the ranks up to it (before it, for exscan) in rank order, as a non-commutative operation
// needs. On non-contiguous levels the flat binary-tree scan takes over, with the same results.
#include <gtest/gtest.h>

#include <string>

#include "scomm/coll/simulator.hpp"
#include "scomm/topo/scan_multilevel.hpp"
#include "test_topologies.hpp"
#include "value_simulation.hpp"

namespace scomm::topo {
namespace {

using symbolic::initial_block;
using symbolic::ranks_reduced;
using symbolic::undefined;
using symbolic::ValueSimulation;

// Element e of the reduction over ranks first..last in rank order.
void check(const std::string& name, const Levels& levels, std::int64_t n, bool in_place,
           bool inclusive) {
  const int p = levels.size();
  const LevelCosts costs = LevelCosts::defaults(levels.depth());
  const std::string where = name + " p=" + std::to_string(p) + " n=" + std::to_string(n) +
                            " in_place=" + std::to_string(in_place) +
                            (inclusive ? " scan" : " exscan");
  auto build = [&](const coll::Shape& s) {
    return inclusive ? scan_multilevel(levels, costs, s, n, n * 8, in_place)
                     : exscan_multilevel(levels, costs, s, n, n * 8, in_place);
  };
  const coll::Simulation sim = coll::simulate(build, p, 0, level_model(levels, costs), {8, 8});
  ASSERT_TRUE(sim.ok()) << where << "\n" << sim.describe_problems();
  if (levels.depth() > 0 && scan_multilevel_applies(levels)) {
    ASSERT_EQ(sim.messages_per_level.back(), 2 * (levels.clusters(0) - 1)) << where;
  }
  ValueSimulation values(build, p, 0);
  for (int r = 0; r < p; ++r) {
    // In place, the input slot names the output buffer (as the executor binds it).
    if (!in_place) values.buffers(r).input = initial_block(r, n);
    values.buffers(r).output = in_place ? initial_block(r, n) : undefined(n);
    values.buffers(r).input_is_output = in_place;
  }
  ASSERT_NO_THROW(values.run()) << where;
  for (int r = inclusive ? 0 : 1; r < p; ++r)
    for (std::int64_t e = 0; e < n; ++e)
      ASSERT_EQ(values.buffers(r).output[e], ranks_reduced(0, inclusive ? r : r - 1, e))
          << where << " rank " << r << " element " << e;
}

TEST(ScanMultilevel, EveryRankGetsThePrefixInRankOrder) {
  for (const testing::Topology& topology : testing::topologies())
    for (int p : topology.sizes) {
      const Levels levels = topology.make(p);
      for (std::int64_t n : {0, 3})
        for (bool in_place : {false, true})
          for (bool inclusive : {true, false}) {
            check(topology.name, levels, n, in_place, inclusive);
            if (HasFatalFailure()) return;
          }
    }
}

TEST(ScanMultilevel, FallsBackToTheFlatTreeOnlyOnNonContiguousLevels) {
  EXPECT_TRUE(scan_multilevel_applies(Levels::blocks({"node"}, {4}, 10)));
  EXPECT_FALSE(
      scan_multilevel_applies(testing::from_rule({"node"}, 10, [](int r, int) { return r % 3; })));
}

}  // namespace
}  // namespace scomm::topo
