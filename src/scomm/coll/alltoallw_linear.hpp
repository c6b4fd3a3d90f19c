// Linear all-to-all with a type and a place per block (MPI_Alltoallw): all_to_all_linear.hpp's
// exchange over the schedule's views.
#pragma once

#include <cstdint>
#include <span>

#include "scomm/coll/all_to_all_linear.hpp"

namespace scomm::coll {

// Views 0..p-1 are the blocks to send to each rank (`send_counts` elements each), views p..2p-1
// the blocks received from each.
inline Schedule alltoallw_linear(const Shape& shape, std::span<const int> send_counts,
                                 std::span<const int> recv_counts) {
  return all_to_all_linear(shape, ViewLayout{0, send_counts},
                           ViewLayout{send_counts.size(), recv_counts}, true);
}

// In place: views 0..p-1 are the receive buffer's blocks (`counts` elements each), sent and then
// replaced by the ones received. With a type per block, the blocks travel as packed bytes
// (`bytes[r]` for rank r's, the same at both ends as MPI requires): packed into one temporary,
// received into another, and unpacked over the views once every transfer has completed.
inline Schedule alltoallw_in_place(const Shape& shape, std::span<const int> counts,
                                   std::span<const int> bytes) {
  const int p = shape.size;
  const ViewLayout views{0, counts};
  Schedule schedule(counts.size());
  std::int64_t total = 0;
  for (int k = 1; k < p; ++k) total += bytes[static_cast<std::size_t>((shape.rank + k) % p)];
  const Slot outgoing = schedule.add_temp(TypeId::kByte, total);
  const Slot incoming = schedule.add_temp(TypeId::kByte, total);
  const auto for_each_peer = [&](auto step) {
    std::int64_t at = 0;
    for (int k = 1; k < p; ++k) {
      const int peer = (shape.rank + k) % p;
      const int length = bytes[static_cast<std::size_t>(peer)];
      step(peer, Block{outgoing, at, length}, Block{incoming, at, length});
      at += length;
    }
  };
  schedule.next_round();
  for_each_peer([&](int peer, Block out, Block) { schedule.copy(views.block(peer), out); });
  schedule.next_round();
  for_each_peer([&](int peer, Block out, Block in) {
    schedule.receive(peer, in).send(peer, out).copy(in, views.block(peer));
  });
  return schedule;
}

}  // namespace scomm::coll
