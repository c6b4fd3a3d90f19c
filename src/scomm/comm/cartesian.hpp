// Cartesian communicators. MPI_Cart_create (collective, without reordering) takes the parent's
// first ranks with a fresh context block; MPI_Cart_sub is local (no communication while the grid
// has derivation bits left): every sub-grid is a box over its parent's ranks, so rows, columns
// and sub-boxes keep constant-size maps, and disjoint sub-grids share one derived context (they
// have no member in common), as the halves of a range split do. A grid's sub-grids from
// different calls overlap, so at most SCOMM_DERIVE_BITS of them (default 4) live at once; one
// more fails loudly (SCOMM_ERR_CONTEXT).
#pragma once

#include <optional>
#include <vector>

#include "scomm/comm/comm.hpp"
#include "scomm/comm/runtime.hpp"
#include "scomm/group/cart_grid.hpp"

namespace scomm::comm {

// Collective over `parent`, the result carrying `grid`; the processes beyond the grid get nullopt.
// Error(kArg) when the grid has more points than the parent has processes.
std::optional<Comm> cart_create(Runtime& runtime, Comm& parent, group::CartGrid grid,
                                const group::MapPolicy& policy);

// The grid of a Cartesian communicator, or Error(kTopology).
const group::CartGrid& grid_of(const Comm& comm);

// The sub-grid's ranks in the parent's numbering: a box, or (more than kMaxBoxDims dimensions
// that do not merge) a map built from the box's points. (Public for the memory analyzer, which
// builds the maps a rank's sub-grids keep.)
group::MapPtr sub_grid_in_parent(const group::CartGrid::Sub& sub, const group::MapPolicy& policy);

// Called by every member of `cart` (a Cartesian communicator): the caller's sub-grid of the
// dimensions with remain[k], carrying its own grid.
Comm cart_sub(Runtime& runtime, Comm& cart, const std::vector<bool>& remain,
              const group::MapPolicy& policy);

}  // namespace scomm::comm
