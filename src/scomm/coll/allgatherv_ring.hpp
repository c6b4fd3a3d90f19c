// Ring allgatherv: the ring allgather (allgather_ring.hpp) over blocks of different lengths, each
// received straight into its place.
#pragma once

#include <cstdint>
#include <span>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Gathers `sendcount` elements of the send type from every rank into every rank's output, rank
// r's block at displs[r], counts[r] elements of the receive type. `in_place`: the own block is
// already in place (no input).
Schedule allgatherv_ring(const Shape& shape, std::int64_t sendcount, std::span<const int> counts,
                         std::span<const int> displs, bool in_place);

}  // namespace scomm::coll
