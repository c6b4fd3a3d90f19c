// Binomial-tree reduce: the mirror of the binomial broadcast. A rank reduces its children's
// partial results, nearest subtree first, then sends to its parent: ceil(log2 p) steps on the
// critical path, p - 1 messages of the whole vector: the choice for short vectors.
//
// A subtree covers a contiguous range of relative ranks, so the tree reduces in relative-rank
// order. For a non-commutative operation that order must be rank order: the tree is rooted at
// rank 0 and rank 0 sends the result to the root (one message more when root != 0).
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Reduces `count` elements of every rank's input into the output of shape.root. `in_place`: the
// root's input is its output. Ranks other than the root never touch the output.
Schedule reduce_binomial(const Shape& shape, std::int64_t count, bool in_place, bool commutative);

}  // namespace scomm::coll
