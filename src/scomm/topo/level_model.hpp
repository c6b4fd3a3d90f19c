// The simulator's cost model of a topology: what a message between two ranks costs, from the
// levels they share. Pure C++ (no MPI).
#pragma once

#include "scomm/coll/cost_model.hpp"
#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

// Two ranks in one cluster of the innermost level use stage depth()'s link; two whose innermost
// shared cluster is at level l use stage l + 1's; two sharing none use stage 0's (the slowest).
// A flat topology puts every message on stage 0's link. The model holds its own copy of `levels`.
coll::LevelModel level_model(const Levels& levels, const LevelCosts& costs);

}  // namespace scomm::topo
