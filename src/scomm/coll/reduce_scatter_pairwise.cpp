#include "scomm/coll/reduce_scatter_pairwise.hpp"

#include "scomm/coll/block_offsets.hpp"

namespace scomm::coll {

Schedule reduce_scatter_pairwise(const Shape& shape, std::span<const std::int64_t> counts,
                                 bool in_place) {
  Schedule schedule;
  const int p = shape.size, rank = shape.rank;
  const std::vector<std::int64_t> displs = offsets_of(counts);
  const auto input_block = [&](int r) {
    const auto b = static_cast<std::size_t>(r);
    return Block{kInput, displs[b], counts[b]};
  };
  const std::int64_t n = counts[static_cast<std::size_t>(rank)];
  const Block mine{kOutput, 0, n};
  // In place, the output's start is input still to be sent: collect in a temporary.
  const Block higher = in_place ? Block{schedule.add_temp(TypeId::kRecv, n), 0, n} : mine;
  schedule.copy(input_block(rank), higher);
  const Block incoming{schedule.add_temp(TypeId::kRecv, n), 0, n};
  const Block lower{schedule.add_temp(TypeId::kRecv, n), 0, n};  // ranks 0 .. rank - 1
  for (int i = 1; i < p; ++i) {
    const int to = (rank - i + p) % p, from = (rank + i) % p;
    schedule.next_round().send(to, input_block(to));
    if (from == 0) {
      schedule.receive(from, lower);
    } else {
      schedule.receive(from, incoming).reduce_right(incoming, from > rank ? higher : lower);
    }
  }
  if (rank > 0) schedule.reduce_left(lower, higher);
  if (in_place) schedule.copy(higher, mine);
  return schedule;
}

}  // namespace scomm::coll
