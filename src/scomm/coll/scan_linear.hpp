// Linear (chain) prefix reduction: rank r receives the prefix of ranks 0..r-1 from rank r - 1,
// forms its result and passes the prefix through itself on to rank r + 1. p - 1 hops, but no rank
// waits for a later one, so back-to-back calls pipeline along the chain: the choice on few ranks
// (Open MPI's default scan). A long vector goes in segments, rank r forwarding segment s - 1 while
// it receives segment s, so the chain takes ~ (segments + p - 2) segment steps instead of
// p - 1 whole-vector steps. Rank order, so any operation; where the operation commutes, a scan
// receives the prefix straight into its output and reduces its input in on the right, instead of
// copying the input there first and receiving the prefix aside: one pass over the vector less.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// As scan_recursive_doubling / exscan_recursive_doubling (scan_recursive_doubling.hpp), in
// segments of at most `segment` elements (segment >= 1); `commutative`: the operation commutes
// (an exscan's chain is the same either way).
Schedule scan_linear(const Shape& shape, std::int64_t count, bool in_place, std::int64_t segment,
                     bool commutative);
Schedule exscan_linear(const Shape& shape, std::int64_t count, bool in_place, std::int64_t segment,
                       bool commutative);

}  // namespace scomm::coll
