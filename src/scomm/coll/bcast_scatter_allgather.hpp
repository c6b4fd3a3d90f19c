// Van de Geijn broadcast: the buffer is cut into p pieces (the last ones shorter or empty when
// p does not divide the count), scattered down a binomial tree (piece i to relative rank i: a
// subtree's pieces are one run of the buffer, received in place), then put back together by a
// ring allgather. About 2 (p - 1)/p of the buffer through each link instead of log2 p times
// all of it: the choice for long messages.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Broadcasts `count` elements of the output buffer from shape.root.
Schedule bcast_scatter_allgather(const Shape& shape, std::int64_t count);
// Adds the rounds that broadcast `data` so to `schedule`.
void add_bcast_scatter_allgather(Schedule& schedule, const Shape& shape, Block data);

}  // namespace scomm::coll
