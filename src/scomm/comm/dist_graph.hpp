// Distributed graph communicators: a duplicate of the parent (the same members in the same order:
// scomm never reorders, which MPI allows) carrying each member's own edges; no member stores
// another's.
#pragma once

#include "scomm/comm/comm.hpp"
#include "scomm/comm/runtime.hpp"
#include "scomm/group/dist_graph.hpp"

namespace scomm::comm {

// Collective over `parent`: its duplicate, carrying the caller's `graph`.
Comm dist_graph_create_adjacent(Runtime& runtime, Comm& parent, group::DistGraph graph);

// The two halves of it, for a creation that learns the edges on the new communicator itself
// (where no other message can be yet): the duplicate, then its graph.
Comm duplicate(Runtime& runtime, Comm& parent);
void attach(Comm& comm, group::DistGraph graph);

// The graph of a distributed graph communicator, or Error(kTopology).
const group::DistGraph& graph_of(const Comm& comm);

}  // namespace scomm::comm
