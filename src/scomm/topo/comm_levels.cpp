#include "scomm/topo/comm_levels.hpp"

namespace scomm::topo {

Levels levels_of(const comm::Comm& comm, const Levels& world) {
  const p2p::Channel& channel = comm.channel();
  return world.restrict(comm.size(), [&](int r) { return channel.select(r); });
}

}  // namespace scomm::topo
