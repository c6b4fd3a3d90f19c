// Recursive-doubling allgather: in the round of distance d, ranks d apart swap everything they
// hold so far, so the held blocks double each round. log2 p rounds for a power of two. Otherwise
// the first 2 * rem ranks (p = 2^k + rem) fold in pairs first: the even one hands its block to
// the odd one, sits out the doubling and receives the whole result at the end; the blocks a
// group of remaining ranks holds are still a run in rank order, so every swap is one message
// straight into the output.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// As allgather_ring (same buffers and in-place rule).
Schedule allgather_recursive_doubling(const Shape& shape, std::int64_t sendcount,
                                      std::int64_t recvcount, bool in_place);

}  // namespace scomm::coll
