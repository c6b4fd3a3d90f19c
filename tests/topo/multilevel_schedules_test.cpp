// Every multilevel schedule builder on every topology of test_topologies.hpp (1..20 ranks on
// 0-4 levels, uneven and round-robin clusters, the seed's 20-rank Fig. 1 and its
// 48 = 16 + 16 + 16 benchmark), every root, empty and non-empty blocks, in place and not:
//   - on the cost-model simulator with the topology's levels: every message matched with its
//     size, and level 0 carries the tree's clusters(0) - 1 messages per pass;
//   - on symbolic values (value_simulation.hpp): the result MPI defines, reductions combined in
//     rank order where the operation is non-commutative, each bcast element received once.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "scomm/coll/segments.hpp"
#include "scomm/coll/simulator.hpp"
#include "scomm/topo/allgather_multilevel.hpp"
#include "scomm/topo/allreduce_multilevel.hpp"
#include "scomm/topo/alltoall_multilevel.hpp"
#include "scomm/topo/barrier_multilevel.hpp"
#include "scomm/topo/bcast_multilevel.hpp"
#include "scomm/topo/gather_multilevel.hpp"
#include "scomm/topo/reduce_multilevel.hpp"
#include "scomm/topo/scatter_multilevel.hpp"
#include "test_topologies.hpp"
#include "value_simulation.hpp"

namespace scomm::topo {
namespace {

using symbolic::initial;
using symbolic::initial_block;
using symbolic::ranks_reduced;
using symbolic::undefined;
using symbolic::Value;
using symbolic::Values;
using symbolic::ValueSimulation;
using testing::topologies;
using testing::Topology;

struct Case {
  const Levels& levels;
  const LevelCosts& costs;
  int p;
  int root;
  std::int64_t n;
  bool in_place;
  std::string describe() const {
    return "p=" + std::to_string(p) + " root=" + std::to_string(root) + " n=" + std::to_string(n) +
           " in_place=" + std::to_string(in_place);
  }
};

// Simulates on the topology's cost model; returns the messages crossing level 0 (all of them
// on a flat topology, where the model has one level).
std::int64_t slow_messages(const Case& c, const coll::ScheduleBuilder& build,
                           coll::ElementSizes sizes = {8, 8}) {
  const coll::LevelModel model = level_model(c.levels, c.costs);
  const coll::Simulation sim = coll::simulate(build, c.p, c.root, model, sizes);
  EXPECT_TRUE(sim.ok()) << c.describe() << "\n" << sim.describe_problems();
  return sim.messages_per_level.back();
}

// `passes` times clusters(0) - 1 messages on level 0 (nothing to count on a flat topology).
void expect_slow(const Case& c, const coll::ScheduleBuilder& build, std::int64_t passes,
                 coll::ElementSizes sizes = {8, 8}) {
  const std::int64_t slow = slow_messages(c, build, sizes);
  if (c.levels.depth() > 0) {
    EXPECT_EQ(slow, passes * (c.levels.clusters(0) - 1)) << c.describe();
  }
}

void expect_reduced(const Values& got, int p, std::int64_t n, bool commutative,
                    const std::string& where) {
  ASSERT_EQ(static_cast<std::int64_t>(got.size()), n) << where;
  for (std::int64_t e = 0; e < n; ++e) {
    Value value = got[e];
    if (commutative) std::sort(value.begin(), value.end());
    ASSERT_EQ(value, ranks_reduced(0, p - 1, e)) << where << " element " << e;
  }
}

using CaseCheck = std::function<void(const Case&)>;

void for_every_case(bool rooted, const CaseCheck& check) {
  for (const Topology& topology : topologies()) {
    for (int p : topology.sizes) {
      const Levels levels = topology.make(p);
      const LevelCosts costs = LevelCosts::defaults(levels.depth());
      for (int root = 0; root < (rooted ? p : 1); ++root)
        for (std::int64_t n : {0, 3})
          for (bool in_place : {false, true}) {
            SCOPED_TRACE(topology.name);
            check(Case{levels, costs, p, root, n, in_place});
            if (::testing::Test::HasFailure()) return;
          }
    }
  }
}

void check_bcast(const Case& c, std::int64_t bytes) {
  auto build = [&](const coll::Shape& s) {
    return bcast_multilevel(c.levels, c.costs, s, c.n, bytes);
  };
  const std::int64_t per_segment = coll::segment_elements(bytes, c.n);
  const std::int64_t segments = std::max<std::int64_t>(1, (c.n + per_segment - 1) / per_segment);
  expect_slow(c, build, segments);
  ValueSimulation values(build, c.p, c.root);
  for (int r = 0; r < c.p; ++r)
    values.buffers(r).output = r == c.root ? initial_block(r, c.n) : undefined(c.n);
  values.run();
  for (int r = 0; r < c.p; ++r) {
    ASSERT_EQ(values.buffers(r).output, initial_block(c.root, c.n)) << c.describe();
    EXPECT_EQ(values.received_elements(r), r == c.root ? 0 : c.n) << c.describe();
  }
}

TEST(MultilevelSchedules, Bcast) {
  for_every_case(true, [](const Case& c) { check_bcast(c, c.n * 8); });
}

TEST(MultilevelSchedules, BcastPipelined) {  // elements of 20,000 B: one segment each
  for_every_case(true, [](const Case& c) { check_bcast(c, c.n * 20000); });
}

void check_reduce(const Case& c, bool commutative) {
  auto build = [&](const coll::Shape& s) {
    return reduce_multilevel(c.levels, c.costs, s, c.n, c.n * 8, c.in_place && s.rank == s.root,
                             commutative);
  };
  const std::int64_t slow = slow_messages(c, build);
  if (c.levels.depth() > 0 && reduce_multilevel_applies(c.levels, commutative)) {
    // Rank 0 relays a non-commutative result to another root: one message more, at most.
    const std::int64_t tree = c.levels.clusters(0) - 1;
    EXPECT_TRUE(slow == tree || (!commutative && c.root != 0 && slow == tree + 1))
        << c.describe() << " slow messages " << slow;
  }
  ValueSimulation values(build, c.p, c.root);
  for (int r = 0; r < c.p; ++r) {
    const bool in_place = r == c.root && c.in_place;  // the input is the output, as bound
    values.buffers(r).input = in_place ? Values{} : initial_block(r, c.n);
    values.buffers(r).output = in_place ? initial_block(r, c.n) : undefined(c.n);
    values.buffers(r).input_is_output = in_place;
  }
  values.run();
  expect_reduced(values.buffers(c.root).output, c.p, c.n, commutative, c.describe());
}

TEST(MultilevelSchedules, Reduce) {
  for_every_case(true, [](const Case& c) { check_reduce(c, true); });
}

TEST(MultilevelSchedules, ReduceNonCommutativeKeepsRankOrder) {
  for_every_case(true, [](const Case& c) { check_reduce(c, false); });
}

void check_allreduce(const Case& c, bool commutative) {
  auto build = [&](const coll::Shape& s) {
    return allreduce_multilevel(c.levels, c.costs, s, c.n, c.n * 8, c.in_place, commutative);
  };
  if (reduce_multilevel_applies(c.levels, commutative))
    expect_slow(c, build, 2);
  else
    slow_messages(c, build);
  ValueSimulation values(build, c.p, 0);
  for (int r = 0; r < c.p; ++r) {
    values.buffers(r).input = c.in_place ? Values{} : initial_block(r, c.n);
    values.buffers(r).output = c.in_place ? initial_block(r, c.n) : undefined(c.n);
    values.buffers(r).input_is_output = c.in_place;
  }
  values.run();
  for (int r = 0; r < c.p; ++r)
    expect_reduced(values.buffers(r).output, c.p, c.n, commutative, c.describe());
}

TEST(MultilevelSchedules, Allreduce) {
  for_every_case(false, [](const Case& c) { check_allreduce(c, true); });
}

TEST(MultilevelSchedules, AllreduceNonCommutativeKeepsRankOrder) {
  for_every_case(false, [](const Case& c) { check_allreduce(c, false); });
}

TEST(MultilevelSchedules, Barrier) {
  for_every_case(false, [](const Case& c) {
    auto build = [&](const coll::Shape& s) { return barrier_multilevel(c.levels, c.costs, s); };
    expect_slow(c, build, 2);
    ValueSimulation values(build, c.p, 0);
    values.run();
  });
}

// Blocks of two types: the send type half as wide (2n elements of 4 B against n of 8 B).
constexpr coll::ElementSizes kTwoTypes{4, 8};

using RootedMovement = coll::Schedule (*)(const Levels&, const LevelCosts&, const coll::Shape&,
                                          std::int64_t sendcount, std::int64_t recvcount,
                                          std::int64_t bytes, bool in_place);

// Case c's builder of a gather or scatter: blocks of send_scale * n send-type elements.
coll::ScheduleBuilder rooted_builder(const Case& c, RootedMovement op, std::int64_t send_scale) {
  return [&c, op, send_scale](const coll::Shape& s) {
    return op(c.levels, c.costs, s, send_scale * c.n, c.n, c.n * 8, c.in_place && s.rank == s.root);
  };
}

TEST(MultilevelSchedules, Gather) {
  for_every_case(true, [](const Case& c) {
    expect_slow(c, rooted_builder(c, gather_multilevel, 2), 1, kTwoTypes);
    ValueSimulation values(rooted_builder(c, gather_multilevel, 1), c.p, c.root);
    for (int r = 0; r < c.p; ++r)  // in place, the root has no send side
      if (r != c.root || !c.in_place) values.buffers(r).input = initial_block(r, c.n);
    Values& out = values.buffers(c.root).output;
    out = undefined(c.p * c.n);
    if (c.in_place)
      for (std::int64_t e = 0; e < c.n; ++e) out[c.root * c.n + e] = initial(c.root, e);
    values.run();
    for (int r = 0; r < c.p; ++r)
      for (std::int64_t e = 0; e < c.n; ++e)
        ASSERT_EQ(out[r * c.n + e], initial(r, e)) << c.describe() << " rank " << r;
  });
}

TEST(MultilevelSchedules, Scatter) {
  for_every_case(true, [](const Case& c) {
    expect_slow(c, rooted_builder(c, scatter_multilevel, 2), 1, kTwoTypes);
    ValueSimulation values(rooted_builder(c, scatter_multilevel, 1), c.p, c.root);
    for (int r = 0; r < c.p; ++r)  // in place, the root has no receive side
      if (r != c.root || !c.in_place) values.buffers(r).output = undefined(c.n);
    values.buffers(c.root).input = initial_block(c.root, c.p * c.n);
    values.run();
    for (int r = 0; r < c.p; ++r) {
      if (r == c.root && c.in_place) continue;  // the root's block stays in its input
      for (std::int64_t e = 0; e < c.n; ++e)
        ASSERT_EQ(values.buffers(r).output[e], initial(c.root, r * c.n + e))
            << c.describe() << " rank " << r;
    }
  });
}

TEST(MultilevelSchedules, Allgather) {
  for_every_case(false, [](const Case& c) {
    auto sized = [&](const coll::Shape& s) {
      return allgather_multilevel(c.levels, c.costs, s, 2 * c.n, c.n, c.n * 8, c.in_place);
    };
    expect_slow(c, sized, 2, c.in_place ? coll::ElementSizes{8, 8} : kTwoTypes);
    auto build = [&](const coll::Shape& s) {
      return allgather_multilevel(c.levels, c.costs, s, c.n, c.n, c.n * 8, c.in_place);
    };
    ValueSimulation values(build, c.p, 0);
    for (int r = 0; r < c.p; ++r) {
      if (!c.in_place) values.buffers(r).input = initial_block(r, c.n);  // else no send side
      values.buffers(r).output = undefined(c.p * c.n);
      if (c.in_place)
        for (std::int64_t e = 0; e < c.n; ++e)
          values.buffers(r).output[r * c.n + e] = initial(r, e);
    }
    values.run();
    for (int r = 0; r < c.p; ++r)
      for (int q = 0; q < c.p; ++q)
        for (std::int64_t e = 0; e < c.n; ++e)
          ASSERT_EQ(values.buffers(r).output[q * c.n + e], initial(q, e))
              << c.describe() << " rank " << r << " block of " << q;
  });
}

// The root of a gather or scatter walks the whole tree (O(p) nodes), the other ranks their own
// stages: 10^5 ranks on four levels (4 sites of 32 racks of 8 nodes of 2 sockets of 48 ranks, the
// last socket shorter) simulate in well under a second each.
TEST(MultilevelSchedules, GatherScatterAt100kRanks) {
  const int p = 100'000;
  const Levels levels = Levels::blocks({"site", "rack", "node", "socket"}, {24576, 768, 96, 48}, p);
  const LevelCosts costs = LevelCosts::defaults(levels.depth());
  const std::vector<std::pair<std::string, coll::ScheduleBuilder>> builders = {
      {"gather",
       [&](const coll::Shape& s) { return gather_multilevel(levels, costs, s, 1, 1, 8, false); }},
      {"scatter",
       [&](const coll::Shape& s) { return scatter_multilevel(levels, costs, s, 1, 1, 8, false); }},
  };
  for (const auto& [name, build] : builders)
    for (int root : {0, p / 2 + 7}) {
      const Case c{levels, costs, p, root, 1, false};
      SCOPED_TRACE(name);
      expect_slow(c, build, 1);
    }
}

TEST(MultilevelSchedules, Alltoall) {
  for_every_case(false, [](const Case& c) {
    auto sized = [&](const coll::Shape& s) {
      return alltoall_multilevel(c.levels, s, 2 * c.n, c.n, c.in_place);
    };
    const std::int64_t slow =
        slow_messages(c, sized, c.in_place ? coll::ElementSizes{8, 8} : kTwoTypes);
    if (c.levels.depth() > 0 && c.levels.clusters(0) > 1) {  // one message per pair of leaders
      EXPECT_EQ(slow, std::int64_t{c.levels.clusters(0)} * (c.levels.clusters(0) - 1));
    }
    auto build = [&](const coll::Shape& s) {
      return alltoall_multilevel(c.levels, s, c.n, c.n, c.in_place);
    };
    ValueSimulation values(build, c.p, 0);
    for (int r = 0; r < c.p; ++r) {  // rank r's block for q: {r * kElementBase + q * n + e}
      if (!c.in_place) values.buffers(r).input = initial_block(r, c.p * c.n);  // else no send side
      values.buffers(r).output = c.in_place ? initial_block(r, c.p * c.n) : undefined(c.p * c.n);
    }
    values.run();
    for (int q = 0; q < c.p; ++q)
      for (int r = 0; r < c.p; ++r)
        for (std::int64_t e = 0; e < c.n; ++e)
          ASSERT_EQ(values.buffers(q).output[r * c.n + e], initial(r, q * c.n + e))
              << c.describe() << " rank " << q << " block from " << r;
  });
}

}  // namespace
}  // namespace scomm::topo
