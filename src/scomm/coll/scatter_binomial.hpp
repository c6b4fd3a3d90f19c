// Binomial-tree scatter: the mirror of the binomial gather. The root sends each child the run of
// blocks of the child's subtree (relative ranks) in one message, from its send buffer, or from a
// temporary for the one run that wraps past rank p - 1; an inner rank receives its subtree's run
// into a temporary of its receive type, keeps its own block and forwards the rest.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Scatters the root's input (rank r's block at r * sendcount elements of the send type) to every
// rank's output (`recvcount` elements of the receive type). `in_place`: the root keeps its block
// where it is (the root has no output).
Schedule scatter_binomial(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                          bool in_place);

}  // namespace scomm::coll
