// Binomial-tree gather: the mirror of the binomial broadcast. A rank's subtree is a run of
// relative ranks, so a non-root collects its subtree's blocks in a row (a temporary of its send
// type) and hands them to its parent in one message; the root receives each child's run straight
// into its receive buffer, through a temporary only for the one run that wraps past rank p - 1.
// ceil(log2 p) steps, each block sent once per level: the choice for short blocks.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Gathers `sendcount` elements of the send type from every rank into the root's output, rank r's
// block at r * recvcount elements of the receive type. `in_place`: the root's block is already
// in its output (the root has no input).
Schedule gather_binomial(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                         bool in_place);

// The relative ranks in the binomial subtree of `relative` (itself included).
int binomial_subtree_size(int relative, int size);

}  // namespace scomm::coll
