// Reduce-scatter by recursive halving: log2 p steps, each sending half of what the step before
// sent, about n (p-1)/p elements per rank in all. A non-power-of-two p folds its first 2r ranks
// in pairs first (the odd one keeps both their blocks and hands the even one its block at the
// end). Any operation: the halving keeps rank order (recursive_halving.hpp) and leaves new rank
// v with position bit_reverse(v), so the vector is first copied with its blocks in
// bit-reversed order: position bit_reverse(v) then holds block v. Latency-optimal among the
// reduce-scatters: the choice for short vectors and for non-commutative operations.
#pragma once

#include <cstdint>
#include <span>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Reduces every rank's input, a vector of counts[0] + ... + counts[p-1] elements, and leaves
// block r (counts[r] elements) of the result in the output of rank r. In place or not alike: in
// place, the input is the output (the whole vector; the result goes to its start).
Schedule reduce_scatter_recursive_halving(const Shape& shape, std::span<const std::int64_t> counts);

}  // namespace scomm::coll
