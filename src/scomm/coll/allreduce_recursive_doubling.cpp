#include "scomm/coll/allreduce_recursive_doubling.hpp"

#include <optional>

namespace scomm::coll {

Schedule allreduce_recursive_doubling(const Shape& shape, std::int64_t count, bool in_place) {
  Schedule schedule;
  const int p = shape.size, rank = shape.rank;
  const Block input{kInput, 0, count}, result{kOutput, 0, count};
  // Until the first exchange the result holds nothing: the rank sends its input as it is and
  // receives its partner's vector straight into the result, reducing the input in on the side
  // its rank takes, instead of copying the input there first (one pass over the vector less).
  bool holds_own = in_place;
  std::optional<Block> incoming;
  // Receives `partner`'s partial result and reduces it with this rank's, in rank order: the
  // first straight into the result, the input reduced in; later ones into `incoming`.
  const auto combine = [&](int partner) {
    const bool first = !holds_own;
    if (!first && !incoming) incoming = Block{schedule.add_temp(TypeId::kRecv, count), 0, count};
    const Block into = first ? result : *incoming;
    const Block other = first ? input : into;
    schedule.receive(partner, into);
    // The lower partner's contribution goes on the left.
    if ((partner < rank) != first)
      schedule.reduce_left(other, result);
    else
      schedule.reduce_right(other, result);
    holds_own = true;
  };

  const int pof2 = floor_pow2(p);
  const int rem = p - pof2;
  // The first 2*rem ranks fold in pairs: the even one hands its vector to the odd one and
  // sits out the doubling.
  int new_rank = rank - rem;
  if (rank < 2 * rem) {
    if (rank % 2 == 0) {
      schedule.next_round().send(rank + 1, holds_own ? result : input);
      schedule.next_round().receive(rank + 1, result);
      return schedule;
    }
    schedule.next_round();
    combine(rank - 1);
    new_rank = rank / 2;
  }
  for (int mask = 1; mask < pof2; mask *= 2) {
    const int new_partner = new_rank ^ mask;
    const int partner = new_partner < rem ? new_partner * 2 + 1 : new_partner + rem;
    schedule.next_round().send(partner, holds_own ? result : input);
    combine(partner);
  }
  if (!holds_own) schedule.copy(input, result);  // a rank alone
  if (rank < 2 * rem) schedule.next_round().send(rank - 1, result);
  return schedule;
}

}  // namespace scomm::coll
