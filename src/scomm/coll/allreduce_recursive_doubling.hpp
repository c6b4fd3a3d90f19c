// Recursive-doubling allreduce: log2 p rounds, each exchanging the whole vector with the partner
// that differs in one bit and reducing. A non-power-of-two p first folds the first 2r ranks in
// pairs (r = p - 2^floor(log2 p)) and sends the result back at the end. Partners' blocks stay
// contiguous ranges of ranks, so non-commutative operations reduce in rank order. Latency-optimal:
// the choice for short vectors.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Reduces `count` elements of the input (or, with `in_place`, of the output) into the output of
// every rank.
Schedule allreduce_recursive_doubling(const Shape& shape, std::int64_t count, bool in_place);

}  // namespace scomm::coll
