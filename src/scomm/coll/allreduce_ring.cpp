#include "scomm/coll/allreduce_ring.hpp"

#include "scomm/coll/block_offsets.hpp"

namespace scomm::coll {

Schedule allreduce_ring(const Shape& shape, std::int64_t count, bool in_place) {
  Schedule schedule;
  const int p = shape.size, rank = shape.rank;
  if (!in_place) schedule.copy(Block{kInput, 0, count}, Block{kOutput, 0, count});
  if (p == 1) return schedule;
  const std::vector<std::int64_t> offsets = even_offsets(count, p);
  const auto block = [&](int step_back) {  // the output's block rank - step_back (mod p)
    const auto b = static_cast<std::size_t>(((rank - step_back) % p + p) % p);
    return Block{kOutput, offsets[b], offsets[b + 1] - offsets[b]};
  };
  const Slot incoming = schedule.add_temp(TypeId::kRecv, offsets[1]);  // the largest block
  const int right = (rank + 1) % p, left = (rank + p - 1) % p;
  // Step s passes on block rank - s and reduces block rank - s - 1 into; rank ends with the sum
  // of block rank + 1.
  for (int s = 0; s < p - 1; ++s) {
    const Block reduced = block(s + 1);
    const Block into{incoming, 0, reduced.count};
    schedule.next_round().send(right, block(s)).receive(left, into).reduce_left(into, reduced);
  }
  for (int s = 0; s < p - 1; ++s)
    schedule.next_round().send(right, block(s - 1)).receive(left, block(s));
  return schedule;
}

}  // namespace scomm::coll
