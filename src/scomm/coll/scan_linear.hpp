// Linear (chain) prefix reduction: rank r receives the prefix of ranks 0..r-1 from rank r - 1,
// forms its result and passes the prefix through itself on to rank r + 1. p - 1 hops, but one
// message per rank and no rank waits for a later one, so back-to-back calls pipeline along the
// chain: the choice for short vectors on few ranks (Open MPI's default scan). Rank order, so any
// operation.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// As scan_recursive_doubling / exscan_recursive_doubling (scan_recursive_doubling.hpp).
Schedule scan_linear(const Shape& shape, std::int64_t count, bool in_place);
Schedule exscan_linear(const Shape& shape, std::int64_t count, bool in_place);

}  // namespace scomm::coll
