// Virtual topologies without MPI: a grid's and a graph's neighbors in MPI's order, their degrees,
// where a process is named twice, and a graph's checks.
#include <gtest/gtest.h>

#include <vector>

#include "scomm/base/error.hpp"
#include "scomm/group/neighborhood.hpp"

namespace scomm::group {
namespace {

// A 3 x 2 grid, periodic in its second dimension only: rank r sits at (r / 2, r % 2).
TEST(NeighborhoodTest, AGridListsEachDimensionsNeighborsBelowThenAbove) {
  const VirtualTopology grid = CartGrid({3, 2}, {false, true});
  const Neighborhood corner = neighborhood_of(grid, 0);  // (0, 0)
  EXPECT_EQ(corner.sources, (std::vector<Rank>{kUndefined, 2, 1, 1}));
  EXPECT_EQ(corner.destinations, corner.sources);
  EXPECT_TRUE(corner.pairs_swapped);
  const Neighborhood middle = neighborhood_of(grid, 3);  // (1, 1)
  EXPECT_EQ(middle.sources, (std::vector<Rank>{1, 5, 2, 2}));
  EXPECT_EQ(degrees_of(grid).in, 4);
  EXPECT_EQ(degrees_of(grid).out, 4);
  EXPECT_TRUE(has_repeated_neighbors(grid));  // the periodic extent of 2
  EXPECT_FALSE(has_repeated_neighbors(VirtualTopology(CartGrid({3, 2}, {true, false}))));
  EXPECT_EQ(degrees_of(VirtualTopology(CartGrid({}, {}))).in, 0);
}

TEST(NeighborhoodTest, AGraphKeepsItsListsAndTheMembersAgreementOnRepeats) {
  DistGraph graph(4, {3, 1, 3}, {}, {0}, {}, false);
  EXPECT_TRUE(graph.repeats_here());
  EXPECT_FALSE(graph.repeats_anywhere());  // until the members agree
  graph.set_repeats_anywhere(true);
  const VirtualTopology topology = graph;
  const Neighborhood n = neighborhood_of(topology, 2);
  EXPECT_EQ(n.sources, (std::vector<Rank>{3, 1, 3}));
  EXPECT_EQ(n.destinations, (std::vector<Rank>{0}));
  EXPECT_FALSE(n.pairs_swapped);
  EXPECT_EQ(degrees_of(topology).in, 3);
  EXPECT_EQ(degrees_of(topology).out, 1);
  EXPECT_TRUE(has_repeated_neighbors(topology));
  EXPECT_FALSE(DistGraph(4, {1, 2}, {}, {2, 1}, {}, false).repeats_here());
}

TEST(NeighborhoodTest, AGraphRejectsBadRanksAndWeights) {
  const auto error_of = [](auto&& make) {
    try {
      make();
    } catch (const Error& e) {
      return e.error_class();
    }
    return ErrorClass::kSuccess;
  };
  EXPECT_EQ(error_of([] { DistGraph(4, {4}, {}, {}, {}, false); }), ErrorClass::kRank);
  EXPECT_EQ(error_of([] { DistGraph(4, {}, {}, {-1}, {}, false); }), ErrorClass::kRank);
  EXPECT_EQ(error_of([] { DistGraph(4, {1}, {}, {}, {}, true); }), ErrorClass::kArg);
  EXPECT_EQ(error_of([] { DistGraph(4, {1}, {-2}, {}, {}, true); }), ErrorClass::kArg);
  EXPECT_EQ(error_of([] { DistGraph(4, {1}, {7}, {2}, {0}, true); }), ErrorClass::kSuccess);
  EXPECT_TRUE(DistGraph(4, {1}, {5}, {}, {}, false).source_weights().empty());
}

}  // namespace
}  // namespace scomm::group
