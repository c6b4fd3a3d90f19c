#include "scomm/coll/allgather_recursive_doubling.hpp"

#include "scomm/coll/allgather_ring.hpp"
#include "scomm/coll/rank_blocks.hpp"

namespace scomm::coll {
namespace {

// Ranks of the doubling (2^k of them) after the fold: new rank n < rem stands for ranks 2n and
// 2n + 1, the others for rank n + rem alone. Consecutive new ranks stand for consecutive ranks.
struct Folded {
  int rem = 0;
  int first_rank(int n) const noexcept { return n < rem ? 2 * n : n + rem; }
  int rank_of(int n) const noexcept { return n < rem ? 2 * n + 1 : n + rem; }
  // The output blocks new ranks [first, first + n) hold: one run.
  Block held(RankedBuffer output, int first, int n) const noexcept {
    const int begin = first_rank(first), end = first_rank(first + n);
    return ranked_blocks(output, begin, end - begin);
  }
};

}  // namespace

Schedule allgather_recursive_doubling(const Shape& shape, std::int64_t sendcount,
                                      std::int64_t recvcount, bool in_place) {
  Schedule schedule;
  const int p = shape.size, rank = shape.rank;
  const int pof2 = floor_pow2(p);
  const Folded fold{p - pof2};
  const RankedBuffer output{kOutput, recvcount};
  const Block own = ranked_blocks(output, rank, 1);
  int me = rank - fold.rem;
  if (rank < 2 * fold.rem) {
    if (rank % 2 == 0) {  // the whole result comes back, the own block included
      schedule.next_round().send(rank + 1, own_source(sendcount, own, in_place));
      schedule.next_round().receive(rank + 1, ranked_blocks(output, 0, p));
      return schedule;
    }
    schedule.next_round().receive(rank - 1, ranked_blocks(output, rank - 1, 1));
    copy_own_block(schedule, sendcount, own, in_place);  // sent with rank - 1's
    me = rank / 2;
  }
  for (int mask = 1; mask < pof2; mask *= 2) {
    const int partner = me ^ mask;
    // Alone in the first round's send (unfolded), the own block goes from where it is now.
    const bool alone = mask == 1 && rank >= 2 * fold.rem;
    schedule.next_round()
        .receive(fold.rank_of(partner), fold.held(output, partner & ~(mask - 1), mask))
        .send(fold.rank_of(partner), alone ? own_source(sendcount, own, in_place)
                                           : fold.held(output, me & ~(mask - 1), mask));
    if (alone) copy_own_block(schedule, sendcount, own, in_place);
  }
  if (pof2 == 1) copy_own_block(schedule, sendcount, own, in_place);
  if (rank < 2 * fold.rem) schedule.next_round().send(rank - 1, ranked_blocks(output, 0, p));
  return schedule;
}

}  // namespace scomm::coll
