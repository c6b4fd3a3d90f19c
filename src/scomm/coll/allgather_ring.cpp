#include "scomm/coll/allgather_ring.hpp"

#include <vector>

namespace scomm::coll {

void append_ring_allgather(Schedule& schedule, const Shape& shape, std::span<const Block> blocks,
                           Block own_source) {
  const int p = shape.size, me = shape.relative(shape.rank);
  const int right = shape.absolute((me + 1) % p), left = shape.absolute((me + p - 1) % p);
  // Round k sends block me - k and receives block me - k - 1: never the same block.
  for (int k = 0; k + 1 < p; ++k)
    schedule.next_round()
        .receive(left, blocks[static_cast<std::size_t>((me - k - 1 + 2 * p) % p)])
        .send(right, k == 0 ? own_source : blocks[static_cast<std::size_t>((me - k + p) % p)]);
}

void copy_own_block(Schedule& schedule, std::int64_t sendcount, Block own, bool in_place) {
  if (in_place) return;
  if (schedule.rounds().empty()) schedule.next_round();
  schedule.copy(Block{kInput, 0, sendcount}, own);
}

Schedule allgather_ring(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                        bool in_place) {
  Schedule schedule;
  std::vector<Block> blocks(static_cast<std::size_t>(shape.size));
  for (int r = 0; r < shape.size; ++r)
    blocks[static_cast<std::size_t>(r)] = Block{kOutput, r * recvcount, recvcount};
  const Block own = blocks[static_cast<std::size_t>(shape.rank)];
  append_ring_allgather(schedule, shape, blocks, own_source(sendcount, own, in_place));
  copy_own_block(schedule, sendcount, own, in_place);
  return schedule;
}

}  // namespace scomm::coll
