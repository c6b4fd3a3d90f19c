// Linear gatherv: every rank sends its block straight to the root, which posts all the receives
// at once, each into its place (counts and displacements of the root's choosing). p - 1 messages
// into one rank: the root's link is the bottleneck, but with arbitrary counts no tree can keep
// the blocks in runs without knowing every count everywhere.
#pragma once

#include <cstdint>
#include <span>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Gathers `sendcount` elements of the send type from every rank into the root's output: rank
// r's block at displs[r], counts[r] elements of the receive type (counts and displs: root only).
// `in_place`: the root's block is already in place (the root has no input).
Schedule gatherv_linear(const Shape& shape, std::int64_t sendcount, std::span<const int> counts,
                        std::span<const int> displs, bool in_place);

}  // namespace scomm::coll
