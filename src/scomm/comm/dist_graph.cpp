#include "scomm/comm/dist_graph.hpp"

#include <memory>

#include "scomm/base/error.hpp"
#include "scomm/comm/create.hpp"

namespace scomm::comm {

Comm duplicate(Runtime& runtime, Comm& parent) {
  return std::move(*finish(runtime, *start_dup(runtime, parent, true)));
}

void attach(Comm& comm, group::DistGraph graph) {
  comm.set_topology(std::make_shared<const group::VirtualTopology>(std::move(graph)));
}

Comm dist_graph_create_adjacent(Runtime& runtime, Comm& parent, group::DistGraph graph) {
  Comm made = duplicate(runtime, parent);
  attach(made, std::move(graph));
  return made;
}

const group::DistGraph& graph_of(const Comm& comm) {
  if (!comm.graph())
    throw Error(ErrorClass::kTopology, "the communicator has no distributed graph topology");
  return *comm.graph();
}

}  // namespace scomm::comm
