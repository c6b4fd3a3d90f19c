// A communicator's virtual topology, when it has one (MPI_Topo_test): a Cartesian grid or a
// distributed graph. Duplicates keep it; splits and sub-communicators do not.
#pragma once

#include <variant>

#include "scomm/group/cart_grid.hpp"
#include "scomm/group/dist_graph.hpp"

namespace scomm::group {

using VirtualTopology = std::variant<CartGrid, DistGraph>;

}  // namespace scomm::group
