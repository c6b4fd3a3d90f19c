// A communicator's levels: the world's, seen through its rank map (its base ranks are world
// ranks). Local, no communication; what a sub-communicator inherits from the world.
#pragma once

#include "scomm/comm/comm.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

// Error(kArg) when `world` does not cover the communicator's base ranks.
Levels levels_of(const comm::Comm& comm, const Levels& world);

}  // namespace scomm::topo
