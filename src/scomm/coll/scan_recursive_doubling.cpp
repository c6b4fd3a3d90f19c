#include "scomm/coll/scan_recursive_doubling.hpp"

namespace scomm::coll {
namespace {

Schedule prefix(const Shape& shape, std::int64_t count, bool in_place, bool inclusive) {
  Schedule schedule;
  const int p = shape.size, rank = shape.rank;
  const Block input{kInput, 0, count}, result{kOutput, 0, count};
  int last_mask = 0;  // the last step with a partner: the group's partial is not needed after it
  for (int mask = 1; mask < p; mask *= 2)
    if ((rank ^ mask) < p) last_mask = mask;
  if (inclusive && !in_place) schedule.copy(input, result);
  if (last_mask == 0) return schedule;
  const Block group{schedule.add_temp(TypeId::kRecv, count), 0, count};
  const Block incoming{schedule.add_temp(TypeId::kRecv, count), 0, count};
  schedule.copy(input, group);
  bool has_result = inclusive;  // exscan: the first lower group starts the result
  for (int mask = 1; mask <= last_mask; mask *= 2) {
    const int partner = rank ^ mask;
    if (partner >= p) continue;
    schedule.next_round().send(partner, group).receive(partner, incoming);
    if (partner < rank) {
      if (has_result)
        schedule.reduce_left(incoming, result);
      else
        schedule.copy(incoming, result);
      has_result = true;
      if (mask < last_mask) schedule.reduce_left(incoming, group);
    } else if (mask < last_mask) {
      schedule.reduce_right(incoming, group);
    }
  }
  return schedule;
}

}  // namespace

Schedule scan_recursive_doubling(const Shape& shape, std::int64_t count, bool in_place) {
  return prefix(shape, count, in_place, true);
}

Schedule exscan_recursive_doubling(const Shape& shape, std::int64_t count, bool in_place) {
  return prefix(shape, count, in_place, false);
}

}  // namespace scomm::coll
