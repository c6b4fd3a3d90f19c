#include "scomm/coll/allgather_ring.hpp"

#include <vector>

namespace scomm::coll {

void append_ring_allgather(Schedule& schedule, const Shape& shape, std::span<const Block> blocks) {
  const int p = shape.size, me = shape.relative(shape.rank);
  const int right = shape.absolute((me + 1) % p), left = shape.absolute((me + p - 1) % p);
  // Round k sends block me - k and receives block me - k - 1: never the same block.
  for (int k = 0; k + 1 < p; ++k)
    schedule.next_round()
        .receive(left, blocks[static_cast<std::size_t>((me - k - 1 + 2 * p) % p)])
        .send(right, blocks[static_cast<std::size_t>((me - k + p) % p)]);
}

void copy_own_block(Schedule& schedule, std::int64_t sendcount, Block own, bool in_place) {
  if (!in_place) schedule.next_round().copy(Block{kInput, 0, sendcount}, own);
}

Schedule allgather_ring(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                        bool in_place) {
  Schedule schedule;
  std::vector<Block> blocks(static_cast<std::size_t>(shape.size));
  for (int r = 0; r < shape.size; ++r)
    blocks[static_cast<std::size_t>(r)] = Block{kOutput, r * recvcount, recvcount};
  copy_own_block(schedule, sendcount, blocks[static_cast<std::size_t>(shape.rank)], in_place);
  append_ring_allgather(schedule, shape, blocks);
  return schedule;
}

}  // namespace scomm::coll
