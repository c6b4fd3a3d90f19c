// Rabenseifner's allreduce: reduce-scatter by recursive halving, then allgather by recursive
// doubling (the halving's steps replayed backwards), each moving half the data of the step
// before: 2 log2 p steps, about 2 n (p-1)/p elements sent per rank instead of n log2 p. A
// non-power-of-two p folds its first 2r ranks in pairs first, like recursive doubling. The
// halving keeps rank order (recursive_halving.hpp), so non-commutative operations are exact.
// Bandwidth-optimal: the choice for long vectors. Blocks may hold no elements (count < p).
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Reduces `count` elements of the input (or, with `in_place`, of the output) into the output of
// every rank.
Schedule allreduce_rabenseifner(const Shape& shape, std::int64_t count, bool in_place);

}  // namespace scomm::coll
