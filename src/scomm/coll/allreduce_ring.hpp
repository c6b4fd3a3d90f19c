// Ring allreduce: the vector in p blocks; p - 1 steps of reduce-scatter around the ring (each
// rank passes on the block it has just reduced), then p - 1 steps of allgather around it. About
// 2 n (p-1)/p elements sent per rank, only to the right neighbour: bandwidth-optimal and good on
// networks where neighbours are close, but 2 (p-1) steps of latency. Blocks pass every rank in
// ring order, wrapping past the last one, so only commutative operations are exact (the caller
// picks another algorithm for the others). Blocks may hold no elements (count < p).
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Reduces `count` elements of the input (or, with `in_place`, of the output) into the output of
// every rank; the operation must be commutative.
Schedule allreduce_ring(const Shape& shape, std::int64_t count, bool in_place);

}  // namespace scomm::coll
