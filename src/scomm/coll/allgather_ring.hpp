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

// The ring's rounds over blocks indexed by RELATIVE rank (shape.relative), each rank's own one
// already in place: shared with allgatherv and the broadcast's allgather phase.
void append_ring_allgather(Schedule& schedule, const Shape& shape, std::span<const Block> blocks);

// A round that copies the own block from the input (sendcount elements) to `own`, unless the
// call is in place; shared by the allgathers.
void copy_own_block(Schedule& schedule, std::int64_t sendcount, Block own, bool in_place);

}  // namespace scomm::coll
