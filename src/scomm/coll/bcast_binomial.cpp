#include "scomm/coll/bcast_binomial.hpp"

namespace scomm::coll {

BinomialNode binomial_node(int relative, int size) {
  int mask = 1;
  while (mask < size && (relative & mask) == 0) mask *= 2;
  return {relative == 0 ? -1 : relative - mask, mask};
}

Schedule bcast_binomial(const Shape& shape, std::int64_t count) {
  Schedule schedule;
  const int me = shape.relative(shape.rank);
  const BinomialNode node = binomial_node(me, shape.size);
  const Block all{kOutput, 0, count};
  if (node.parent >= 0) schedule.next_round().receive(shape.absolute(node.parent), all);
  schedule.next_round();
  // Largest subtree first: it has the longest way to go. A child's receive is its first step,
  // so the sends may also complete one at a time (Round::one_by_one).
  int children = 0;
  for (int m = node.mask / 2; m > 0; m /= 2)
    if (me + m < shape.size) {
      schedule.send(shape.absolute(me + m), all);
      ++children;
    }
  if (children > 1) schedule.one_by_one();
  return schedule;
}

}  // namespace scomm::coll
