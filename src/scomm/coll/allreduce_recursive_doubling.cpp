#include "scomm/coll/allreduce_recursive_doubling.hpp"

namespace scomm::coll {

Schedule allreduce_recursive_doubling(const Shape& shape, std::int64_t count, bool in_place) {
  Schedule schedule;
  const int p = shape.size, rank = shape.rank;
  const Block result{kOutput, 0, count};
  const Block incoming{schedule.add_temp(TypeId::kRecv, count), 0, count};
  if (!in_place) schedule.copy(Block{kInput, 0, count}, result);

  const int pof2 = floor_pow2(p);
  const int rem = p - pof2;
  // The first 2*rem ranks fold in pairs: the even one hands its vector to the odd one and
  // sits out the doubling.
  int new_rank = rank - rem;
  if (rank < 2 * rem) {
    if (rank % 2 == 0) {
      schedule.next_round().send(rank + 1, result);
      schedule.next_round().receive(rank + 1, result);
      return schedule;
    }
    schedule.next_round().receive(rank - 1, incoming).reduce_left(incoming, result);
    new_rank = rank / 2;
  }
  for (int mask = 1; mask < pof2; mask *= 2) {
    const int new_partner = new_rank ^ mask;
    const int partner = new_partner < rem ? new_partner * 2 + 1 : new_partner + rem;
    schedule.next_round().receive(partner, incoming).send(partner, result);
    if (partner < rank)
      schedule.reduce_left(incoming, result);
    else
      schedule.reduce_right(incoming, result);
  }
  if (rank < 2 * rem) schedule.next_round().send(rank - 1, result);
  return schedule;
}

}  // namespace scomm::coll
