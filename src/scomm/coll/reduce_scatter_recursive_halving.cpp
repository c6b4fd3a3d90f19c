#include "scomm/coll/reduce_scatter_recursive_halving.hpp"

#include "scomm/coll/block_offsets.hpp"
#include "scomm/coll/recursive_halving.hpp"

namespace scomm::coll {
namespace {

// Where new rank v's blocks (those of real ranks fold.first_rank(v) ..) lie in the input.
Block blocks_of(const Fold& fold, int v, std::span<const std::int64_t> displs) {
  const auto first = static_cast<std::size_t>(fold.first_rank(v));
  const auto last = static_cast<std::size_t>(fold.first_rank(v + 1));
  return {kInput, displs[first], displs[last] - displs[first]};
}

// Offsets of the positions of the bit-reversed copy: position q holds new rank
// bit_reverse(q)'s blocks.
std::vector<std::int64_t> reversed_offsets(const Fold& fold, std::span<const std::int64_t> displs) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(fold.pof2));
  for (int q = 0; q < fold.pof2; ++q)
    counts[static_cast<std::size_t>(q)] = blocks_of(fold, bit_reverse(q, fold.pof2), displs).count;
  return offsets_of(counts);
}

}  // namespace

// In place or not: the input is read into a temporary before the output is written.
Schedule reduce_scatter_recursive_halving(const Shape& shape,
                                          std::span<const std::int64_t> counts) {
  Schedule schedule;
  const int rank = shape.rank;
  const std::vector<std::int64_t> displs = offsets_of(counts);
  const std::int64_t total = displs.back();
  const Block mine{kOutput, 0, counts[static_cast<std::size_t>(rank)]};
  const Fold fold(shape.size);
  if (fold.hands_over(rank)) {
    schedule.next_round().send(rank + 1, Block{kInput, 0, total});
    schedule.next_round().receive(rank + 1, mine);
    return schedule;
  }
  const Slot vector = schedule.add_temp(TypeId::kRecv, total);
  const Slot incoming = schedule.add_temp(TypeId::kRecv, total);
  const bool folded = fold.takes_over(rank);
  schedule.next_round();
  if (folded) schedule.receive(rank - 1, Block{incoming, 0, total});
  const std::vector<std::int64_t> offsets = reversed_offsets(fold, displs);
  for (int q = 0; q < fold.pof2; ++q) {
    const Block from = blocks_of(fold, bit_reverse(q, fold.pof2), displs);
    const Block to = block_of(vector, offsets, {q, q + 1});
    if (!folded) {
      schedule.copy(from, to);
      continue;
    }
    // The even neighbour's vector first: it holds the lower rank's contribution.
    schedule.copy(Block{incoming, from.offset, from.count}, to).reduce_right(from, to);
  }
  const int v = fold.new_rank(rank);
  const Block result =
      block_of(vector, offsets, halve(schedule, fold, v, vector, incoming, offsets).back());
  std::int64_t skip = 0;  // a folded rank's result starts with its even neighbour's block
  if (folded) {
    skip = counts[static_cast<std::size_t>(rank - 1)];
    schedule.next_round().send(rank - 1, Block{vector, result.offset, skip});
  }
  schedule.copy(Block{vector, result.offset + skip, mine.count}, mine);
  return schedule;
}

}  // namespace scomm::coll
