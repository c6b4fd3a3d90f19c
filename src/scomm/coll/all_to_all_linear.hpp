// Linear exchange of a block with every other rank: one round posting every receive and every
// send at once, each straight from and into its place (peers in the order rank + 1, rank + 2,
// ... so that not all ranks start with the same one). Latency-optimal on few ranks, where one
// round beats the log p or p - 1 rounds of the other algorithms; all-to-all, its v-form and
// allgatherv are this exchange over different block layouts.
#pragma once

#include <cstdint>

#include "scomm/coll/block_layout.hpp"
#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// Sends send.block(r) to every other rank r, which keeps it as its recv.block(rank); the own
// block is copied across when `copy_own`.
template <typename Send, typename Recv>
Schedule all_to_all_linear(const Shape& shape, const Send& send, const Recv& recv, bool copy_own) {
  Schedule schedule(views_named(send, recv));
  const int p = shape.size;
  schedule.next_round();
  for (int k = 1; k < p; ++k) {
    const int from = (shape.rank - k + p) % p, to = (shape.rank + k) % p;
    schedule.receive(from, recv.block(from)).send(to, send.block(to));
  }
  if (copy_own) schedule.copy(send.block(shape.rank), recv.block(shape.rank));
  return schedule;
}

// In place: the blocks to send are the output's, replaced by the ones received (block sizes
// must be symmetric, as MPI requires). They arrive in one temporary, in a row, and are copied
// over the blocks just sent once all have completed.
template <typename Recv>
Schedule all_to_all_in_place(const Shape& shape, const Recv& recv) {
  Schedule schedule;
  const int p = shape.size;
  std::int64_t total = 0;
  for (int k = 1; k < p; ++k) total += recv.block((shape.rank + k) % p).count;
  const Slot row = schedule.add_temp(TypeId::kRecv, total);
  schedule.next_round();
  std::int64_t at = 0;
  for (int k = 1; k < p; ++k) {
    const int peer = (shape.rank + k) % p;
    const Block block = recv.block(peer);
    const Block incoming{row, at, block.count};
    schedule.receive(peer, incoming).send(peer, block).copy(incoming, block);
    at += block.count;
  }
  return schedule;
}

}  // namespace scomm::coll
