// The world's levels, discovered collectively at SCOMM_Init, outermost first: the user's levels
// above the node (SCOMM_TOPO_FILE, SCOMM_TOPO_COLORS or SCOMM_TOPO_BLOCKS, kept as given), the
// node (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED; SCOMM_TOPO_NODE=off leaves it out) and
// the node-internal levels of SCOMM_TOPO_HWLOC (package, numa, l3; default package,numa). A
// discovered level is kept only when it splits a cluster of the level above and leaves some
// cluster of more than one rank. SCOMM_TOPO_LINKS prices the levels' links (level_costs.hpp).
// SCOMM_TOPO=off: no levels. docs/DESIGN.md ("Topology") has the formats.
#pragma once

#include <mpi.h>

#include "scomm/topo/hwloc_placement.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

// This rank's node (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED over the world).
struct NodeOfRank {
  int size = 1;    // the world's ranks on it
  int leader = 0;  // the lowest of them: the node's name, the same at each of its ranks
};

struct Discovered {
  Levels levels;
  // The user named levels above the node (file, colors or blocks): the network is not flat by
  // the user's own account, so collectives go multilevel by default (coll/selection.hpp).
  bool user_levels = false;
  LevelCosts costs;  // the defaults for these levels, with SCOMM_TOPO_LINKS's links
  NodeOfRank node;   // under SCOMM_TOPO=off too
};

// Collective over `world` (MPI_COMM_WORLD: the base communicators' ranks). Every rank returns the
// same levels of world's size, or every rank throws: Error(kArg) for settings that cannot be read
// at some rank (that rank says why) or that differ between ranks (SCOMM_TOPO_LINKS included).
// `machine` is loaded only where a node-internal level needs it.
Discovered discover_levels(MPI_Comm world, MachineOnDemand& machine);

}  // namespace scomm::topo
