#include "scomm/coll/scan_linear.hpp"

namespace scomm::coll {
namespace {

Schedule chain(const Shape& shape, std::int64_t count, bool in_place, bool inclusive) {
  Schedule schedule;
  const int rank = shape.rank;
  const bool has_next = rank + 1 < shape.size;
  const Block input{kInput, 0, count}, output{kOutput, 0, count};
  if (inclusive && !in_place) schedule.copy(input, output);
  if (count == 0) return schedule;
  if (rank == 0) {
    if (has_next) schedule.next_round().send(rank + 1, inclusive ? output : input);
    return schedule;
  }
  Block through_me = output;  // the prefix for rank + 1
  if (inclusive) {
    const Block before{schedule.add_temp(TypeId::kRecv, count), 0, count};
    schedule.next_round().receive(rank - 1, before).reduce_left(before, output);
  } else {
    // The prefix before this rank is the output itself, received there; rank + 1 gets it
    // reduced with the input, copied aside first when the output is the input.
    if (has_next) through_me = Block{schedule.add_temp(TypeId::kRecv, count), 0, count};
    if (has_next && in_place) schedule.copy(input, through_me);
    schedule.next_round().receive(rank - 1, output);
    if (has_next && !in_place) schedule.copy(input, through_me);
    if (has_next) schedule.reduce_left(output, through_me);
  }
  if (has_next) schedule.next_round().send(rank + 1, through_me);
  return schedule;
}

}  // namespace

Schedule scan_linear(const Shape& shape, std::int64_t count, bool in_place) {
  return chain(shape, count, in_place, true);
}

Schedule exscan_linear(const Shape& shape, std::int64_t count, bool in_place) {
  return chain(shape, count, in_place, false);
}

}  // namespace scomm::coll
