// Bruck all-to-all: after a local rotation (run[i] = the block for rank + i), the round of
// distance d = 1, 2, 4, ... sends every block whose index has bit d set to rank + d, packed in a
// row (a temporary), and unpacks the ones arriving from rank - d into the same places; at the
// end run[i] holds the block from rank - i. ceil(log2 p) messages instead of p - 1, each block
// sent up to log2 p times: the choice for short blocks.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// As alltoall_pairwise (same buffers and in-place rule).
Schedule alltoall_bruck(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                        bool in_place);

}  // namespace scomm::coll
