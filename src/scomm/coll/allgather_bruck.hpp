// Bruck allgather: a rank keeps the blocks of ranks rank, rank + 1, ... in a row (a temporary),
// and in the round of distance d = 1, 2, 4, ... sends the first min(d, p - d) of them to rank - d
// and appends as many from rank + d. ceil(log2 p) rounds for any p, then one rotation into rank
// order: the choice for short blocks when p is not a power of two.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// As allgather_ring (same buffers and in-place rule).
Schedule allgather_bruck(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                         bool in_place);

}  // namespace scomm::coll
