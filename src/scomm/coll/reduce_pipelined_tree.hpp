// Pipelined binary-tree reduce for long vectors: the vector is cut into segments that flow up an
// in-order binary tree rooted at the root (inorder_tree.hpp), a rank sending the reduced segment
// s - 1 to its parent while it receives segment s from its children. Time ~ (segments + depth) x
// one segment's transfer and reduction instead of log2 p x the whole vector's; every rank
// receives at most two segments at a time. Subtrees are contiguous rank ranges, combined left,
// own, right: rank order, so any operation.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Reduces `count` elements of every rank's input into the output of shape.root, in segments of
// at most `segment` elements (segment >= 1). `in_place`: the root's input is its output.
Schedule reduce_pipelined_tree(const Shape& shape, std::int64_t count, bool in_place,
                               std::int64_t segment);

}  // namespace scomm::coll
