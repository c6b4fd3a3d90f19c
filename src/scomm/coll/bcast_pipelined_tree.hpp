// Pipelined binary-tree broadcast for long messages: the buffer is cut into segments that flow
// down a binary tree (relative rank i has children 2i + 1 and 2i + 2), a rank forwarding segment
// s - 1 while it receives segment s. Time ~ (segments + 2 log2 p) x one segment's transfer instead
// of log2 p x the whole buffer's, with every rank sending at most twice per segment.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Broadcasts `count` elements of the output buffer from shape.root in segments of at most
// `segment` elements (segment >= 1).
Schedule bcast_pipelined_tree(const Shape& shape, std::int64_t count, std::int64_t segment);
// Adds the rounds that broadcast `data` so to `schedule`.
void add_bcast_pipelined_tree(Schedule& schedule, const Shape& shape, Block data,
                              std::int64_t segment);

}  // namespace scomm::coll
