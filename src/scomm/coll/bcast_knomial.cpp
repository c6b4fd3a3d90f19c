#include "scomm/coll/bcast_knomial.hpp"

namespace scomm::coll {

Schedule bcast_knomial(const Shape& shape, std::int64_t count, int radix) {
  Schedule schedule;
  const int me = shape.relative(shape.rank);
  const Block all{kOutput, 0, count};
  // The place value of my lowest nonzero digit (size's bound for the root).
  long long place = 1;
  while (place < shape.size && (me / place) % radix == 0) place *= radix;
  if (me != 0) {
    const int parent = me - static_cast<int>(place * ((me / place) % radix));
    schedule.next_round().receive(shape.absolute(parent), all);
  }
  schedule.next_round();
  // Highest digit first: those subtrees are the largest. A child's receive is its first step,
  // so the sends may also complete one at a time (Round::one_by_one).
  int children = 0;
  for (long long p = place / radix; p >= 1; p /= radix)
    for (int digit = 1; digit < radix; ++digit) {
      const long long child = me + digit * p;
      if (child >= shape.size) continue;
      schedule.send(shape.absolute(static_cast<int>(child)), all);
      ++children;
    }
  if (children > 1) schedule.one_by_one();
  return schedule;
}

}  // namespace scomm::coll
