#include "scomm/comm/dist_graph.hpp"

#include <memory>

#include "scomm/base/error.hpp"
#include "scomm/comm/create.hpp"

namespace scomm::comm {

Comm dist_graph_create_adjacent(Runtime& runtime, Comm& parent, group::DistGraph graph) {
  Comm made = std::move(*finish(*start_dup(runtime, parent, true)));
  made.set_topology(std::make_shared<const group::VirtualTopology>(std::move(graph)));
  return made;
}

const group::DistGraph& graph_of(const Comm& comm) {
  if (!comm.graph())
    throw Error(ErrorClass::kTopology, "the communicator has no distributed graph topology");
  return *comm.graph();
}

}  // namespace scomm::comm
