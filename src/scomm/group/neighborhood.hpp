// The neighbors a process exchanges with in the neighborhood collectives (MPI_Neighbor_*), in
// MPI's order: a distributed graph's lists as given; on a Cartesian grid, for each dimension d
// the neighbor at -1 and then the one at +1 (MPI_Cart_shift(d, 1)'s source and dest), the same
// list for both directions.
#pragma once

#include <vector>

#include "scomm/group/rank.hpp"
#include "scomm/group/virtual_topology.hpp"

namespace scomm::group {

struct Neighborhood {
  // kUndefined where a non-periodic dimension ends: that block is neither sent nor received.
  std::vector<Rank> sources;
  std::vector<Rank> destinations;
  // On a grid, the block a process sends to its -1 neighbor is that neighbor's block from +1,
  // and the other way round (MPI-4.1 section 8.6): block s lands in block s ^ 1. Where both
  // neighbors of a dimension are one process (a periodic extent of 1 or 2), only the order of the
  // receives tells the two messages apart, so they are posted with each pair swapped.
  bool pairs_swapped = false;
};

// The neighborhood of `rank` (a rank of the topology's communicator).
Neighborhood neighborhood_of(const VirtualTopology& topology, Rank rank);

// How many blocks a neighborhood collective receives and sends (a grid's include the missing
// neighbors past its edges), without listing the neighbors.
struct Degrees {
  int in = 0;
  int out = 0;
};
Degrees degrees_of(const VirtualTopology& topology) noexcept;

// Whether some member's neighbors name one process twice on a side: both neighbors of a grid
// dimension (a periodic extent of 1 or 2), or a graph's repeated edge at any member
// (DistGraph::repeats_anywhere). Only the order of the messages then tells which block lands
// where. The same at every member.
bool has_repeated_neighbors(const VirtualTopology& topology) noexcept;

}  // namespace scomm::group
