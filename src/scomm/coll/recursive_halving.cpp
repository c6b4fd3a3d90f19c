#include "scomm/coll/recursive_halving.hpp"

namespace scomm::coll {

int bit_reverse(int v, int pof2) noexcept {
  int reversed = 0;
  for (int bit = 1; bit < pof2; bit *= 2) reversed = reversed * 2 + ((v & bit) != 0 ? 1 : 0);
  return reversed;
}

std::vector<BlockRange> halve(Schedule& schedule, const Fold& fold, int v, Slot vector,
                              Slot incoming, std::span<const std::int64_t> offsets,
                              bool from_input) {
  std::vector<BlockRange> ranges{{0, fold.pof2}};
  for (int mask = 1; mask < fold.pof2; mask *= 2) {
    const BlockRange range = ranges.back();
    const int middle = (range.first + range.last) / 2;
    const bool upper = (v & mask) != 0;
    const BlockRange keep =
        upper ? BlockRange{middle, range.last} : BlockRange{range.first, middle};
    const BlockRange give =
        upper ? BlockRange{range.first, middle} : BlockRange{middle, range.last};
    const int partner = fold.real_rank(v ^ mask);
    const Block mine = block_of(vector, offsets, keep);
    // From the input, the partner's half arrives straight in `vector` and the rank's own is
    // reduced in from the input; else the partner's arrives in `incoming`.
    const Block into = from_input ? mine : block_of(incoming, offsets, keep);
    const Block other = from_input ? block_of(kInput, offsets, keep) : into;
    schedule.next_round()
        .send(partner, block_of(from_input ? kInput : vector, offsets, give))
        .receive(partner, into);
    // The upper rank's partner holds the lower ranks' contribution: it goes on the left.
    if (upper != from_input)
      schedule.reduce_left(other, mine);
    else
      schedule.reduce_right(other, mine);
    from_input = false;
    ranges.push_back(keep);
  }
  return ranges;
}

}  // namespace scomm::coll
