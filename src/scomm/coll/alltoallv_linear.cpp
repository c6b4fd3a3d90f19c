#include "scomm/coll/alltoallv_linear.hpp"

namespace scomm::coll {
namespace {

Schedule alltoallv_in_place(const Shape& shape, const VectorLayout& recv) {
  Schedule schedule;
  const int p = shape.size;
  std::int64_t total = 0;
  for (int k = 1; k < p; ++k) total += recv.counts[static_cast<std::size_t>((shape.rank + k) % p)];
  const Slot row = schedule.add_temp(TypeId::kRecv, total);
  schedule.next_round();
  std::int64_t at = 0;
  for (int k = 1; k < p; ++k) {
    const int peer = (shape.rank + k) % p;
    const Block block = recv.block(kOutput, peer);
    const Block incoming{row, at, block.count};
    schedule.receive(peer, incoming).send(peer, block).copy(incoming, block);
    at += block.count;
  }
  return schedule;
}

}  // namespace

Schedule alltoallv_linear(const Shape& shape, const VectorLayout& send, const VectorLayout& recv,
                          bool in_place) {
  if (in_place) return alltoallv_in_place(shape, recv);
  Schedule schedule;
  const int p = shape.size;
  schedule.next_round();
  for (int k = 1; k < p; ++k) {
    const int from = (shape.rank - k + p) % p, to = (shape.rank + k) % p;
    schedule.receive(from, recv.block(kOutput, from)).send(to, send.block(kInput, to));
  }
  schedule.copy(send.block(kInput, shape.rank), recv.block(kOutput, shape.rank));
  return schedule;
}

}  // namespace scomm::coll
