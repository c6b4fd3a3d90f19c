// Ring allgather: in round k a rank passes the block it received in round k - 1 (its own first)
// to the next rank. p - 1 rounds, each rank sending and receiving (p - 1)/p of the result once:
// bandwidth-optimal, the choice for long blocks.
#pragma once

#include <cstdint>
#include <span>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Gathers `sendcount` elements of the send type from every rank into every rank's output, rank
// r's block at r * recvcount elements of the receive type. `in_place`: the own block is already
// in the output (no input).
Schedule allgather_ring(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                        bool in_place);

// The ring's rounds over blocks indexed by RELATIVE rank (shape.relative); the first sends
// `own_source`, where the caller's own block is now (blocks[me] once in place): shared with
// allgatherv and the broadcast's allgather phase.
void append_ring_allgather(Schedule& schedule, const Shape& shape, std::span<const Block> blocks,
                           Block own_source);

// Where a rank's own block is sent from first: its input (sendcount elements), or `own` in the
// output when the call is in place. The allgathers send it from there and copy it to `own`
// afterwards (copy_own_block): a peer on another core reading lines this core has just written
// is slow (on the 2-core VM, 2 ranks: a send of a fresh copy takes 1.1x as long as one of the
// input at 4 KiB, 1.6-1.8x at 32-256 KiB).
inline Block own_source(std::int64_t sendcount, Block own, bool in_place) {
  return in_place ? own : Block{kInput, 0, sendcount};
}

// A step of the current round, or a round of its own, that copies the own block from the input
// to `own`, unless the call is in place; shared by the allgathers.
void copy_own_block(Schedule& schedule, std::int64_t sendcount, Block own, bool in_place);

}  // namespace scomm::coll
