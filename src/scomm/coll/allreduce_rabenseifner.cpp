#include "scomm/coll/allreduce_rabenseifner.hpp"

#include "scomm/coll/block_offsets.hpp"
#include "scomm/coll/recursive_halving.hpp"

namespace scomm::coll {
namespace {

// Undoes the halving: before step k the rank held ranges[k - 1]; it sends the part it kept,
// ranges[k], and receives the rest of ranges[k - 1] from the same partner.
void double_back(Schedule& schedule, const Fold& fold, int v, std::span<const std::int64_t> offsets,
                 const std::vector<BlockRange>& ranges) {
  for (std::size_t k = ranges.size() - 1; k >= 1; --k) {
    const BlockRange mine = ranges[k], whole = ranges[k - 1];
    const BlockRange rest = mine.first == whole.first ? BlockRange{mine.last, whole.last}
                                                      : BlockRange{whole.first, mine.first};
    const int partner = fold.real_rank(v ^ (1 << (k - 1)));
    schedule.next_round()
        .send(partner, block_of(kOutput, offsets, mine))
        .receive(partner, block_of(kOutput, offsets, rest));
  }
}

}  // namespace

Schedule allreduce_rabenseifner(const Shape& shape, std::int64_t count, bool in_place) {
  Schedule schedule;
  const int rank = shape.rank;
  const Block input{kInput, 0, count}, result{kOutput, 0, count};
  const Fold fold(shape.size);
  if (fold.hands_over(rank)) {
    schedule.next_round().send(rank + 1, in_place ? result : input);
    schedule.next_round().receive(rank + 1, result);
    return schedule;
  }
  // The first exchange receives straight into the result and reduces the input in, instead of
  // copying the input there first: one pass over the vector less.
  bool holds_own = in_place;
  const Slot incoming = schedule.add_temp(TypeId::kRecv, count);
  if (fold.takes_over(rank)) {
    schedule.next_round();
    if (holds_own) {
      schedule.receive(rank - 1, Block{incoming, 0, count})
          .reduce_left(Block{incoming, 0, count}, result);
    } else {  // the even neighbour's vector holds the lower rank's contribution
      schedule.receive(rank - 1, result).reduce_right(input, result);
      holds_own = true;
    }
  }
  if (!holds_own && fold.pof2 == 1) schedule.copy(input, result);  // a rank alone
  const int v = fold.new_rank(rank);
  const std::vector<std::int64_t> offsets = even_offsets(count, fold.pof2);
  const std::vector<BlockRange> ranges =
      halve(schedule, fold, v, kOutput, incoming, offsets, !holds_own);
  double_back(schedule, fold, v, offsets, ranges);
  if (fold.takes_over(rank)) schedule.next_round().send(rank - 1, result);
  return schedule;
}

}  // namespace scomm::coll
