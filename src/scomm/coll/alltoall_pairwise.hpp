// Pairwise all-to-all: p - 1 rounds, one block to one rank and one block from another in each.
// Power of two: partners by XOR (rank ^ k), both ways at once. Otherwise the classic shift
// (send to rank + k, receive from rank - k); in place, a symmetric matching instead (partner
// k - rank mod p, p rounds of which one is the rank itself), since receiving over a block that
// is sent in a later round would lose it. In place, each block arrives in a temporary and is
// copied over the block just sent to the same partner. Bandwidth-optimal: the choice for long
// blocks.
#pragma once

#include <cstdint>
#include <vector>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Sends block r of the input (r * sendcount elements of the send type) to rank r, which keeps it
// as block `rank` of its output (recvcount elements of the receive type). `in_place`: the input
// is the output (blocks of recvcount).
Schedule alltoall_pairwise(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                           bool in_place);

// Who a rank sends to and receives from in each round of a pairwise exchange (rounds with the
// rank itself left out); `symmetric`: the two are the same rank every round.
struct Exchange {
  int to = 0;
  int from = 0;
};
std::vector<Exchange> pairwise_exchanges(int rank, int size, bool symmetric);

}  // namespace scomm::coll
