// Recursive-doubling prefix reduction (Hillis-Steele), inclusive (scan) or exclusive (exscan):
// in step k a rank exchanges the partial result of its aligned group of 2^k ranks with the rank
// that differs in bit k; the lower group's partial joins the result of the upper group's ranks.
// Groups are contiguous ranges of ranks, so non-commutative operations reduce in rank order.
// ceil(log2 p) steps of the whole vector.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Output of rank r: the reduction of the inputs of ranks 0..r (scan) or 0..r-1 (exscan; rank 0's
// output is left as it is). `in_place`: the input is the output.
Schedule scan_recursive_doubling(const Shape& shape, std::int64_t count, bool in_place);
Schedule exscan_recursive_doubling(const Shape& shape, std::int64_t count, bool in_place);

}  // namespace scomm::coll
