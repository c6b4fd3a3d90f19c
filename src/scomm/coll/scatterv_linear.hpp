// Linear scatterv: the root posts all the sends at once, each from its place (counts and
// displacements of the root's choosing), and every rank receives its block straight into its
// output. The mirror of gatherv_linear.
#pragma once

#include <cstdint>
#include <span>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Scatters the root's input (rank r's block at displs[r], counts[r] elements of the send type;
// root only) to every rank's output (`recvcount` elements of the receive type). `in_place`: the
// root keeps its block where it is (the root has no output).
Schedule scatterv_linear(const Shape& shape, std::span<const int> counts,
                         std::span<const int> displs, std::int64_t recvcount, bool in_place);

}  // namespace scomm::coll
