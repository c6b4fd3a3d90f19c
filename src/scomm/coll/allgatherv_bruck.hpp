// Bruck allgatherv: the Bruck allgather (allgather_bruck.hpp) over blocks of different lengths.
// A temporary holds the blocks in order from the caller's own (ranks rank, rank + 1, ...); round
// d sends its first min(d, p - d) blocks to rank - d and receives as many from rank + d behind
// the d it holds, one contiguous run each way; then every block is copied to its place. log2 p
// rounds instead of the linear exchange's p - 1 messages per rank, for short vectors on many
// ranks.
#pragma once

#include <cstdint>
#include <span>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Gathers `sendcount` elements of the send type from every rank into every rank's output, rank
// r's block at displs[r], counts[r] elements of the receive type. `in_place`: the own block is
// already in place (no input).
Schedule allgatherv_bruck(const Shape& shape, std::int64_t sendcount, std::span<const int> counts,
                          std::span<const int> displs, bool in_place);

}  // namespace scomm::coll
