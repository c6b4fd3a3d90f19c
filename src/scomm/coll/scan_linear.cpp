#include "scomm/coll/scan_linear.hpp"

#include <algorithm>

namespace scomm::coll {
namespace {

// Round s receives segment s from rank - 1, reduces it, and sends segment s - 1 on to rank + 1:
// a segment is complete here before it leaves.
Schedule chain(const Shape& shape, std::int64_t count, bool in_place, bool inclusive,
               std::int64_t segment, bool commutative) {
  Schedule schedule;
  const int rank = shape.rank;
  const bool has_prev = rank > 0, has_next = rank + 1 < shape.size;
  const Block input{kInput, 0, count}, output{kOutput, 0, count};
  // A scan's prefix arrives in its output, the input reduced in on the right (the operation
  // commutes and the input is apart), or aside, reduced in on the left of the input copied there.
  const bool prefix_into_output = inclusive && has_prev && commutative && !in_place;
  if (inclusive && !in_place && !prefix_into_output) schedule.copy(input, output);
  if (count == 0) return schedule;
  // What goes on to rank + 1: the output (scan), the input at rank 0 (exscan), else the prefix
  // through this rank, a temporary filled with the input before the receives overwrite it in place.
  Slot onward = inclusive ? kOutput : kInput;
  if (!inclusive && has_prev && has_next) {
    onward = schedule.add_temp(TypeId::kRecv, count);
    schedule.copy(input, Block{onward, 0, count});
  }
  // An exscan receives the prefix as its output.
  const Slot arriving = inclusive && has_prev && !prefix_into_output
                            ? schedule.add_temp(TypeId::kRecv, segment)
                            : kOutput;
  const std::int64_t segments = (count + segment - 1) / segment;
  for (std::int64_t s = 0; s <= segments; ++s) {
    schedule.next_round();
    if (s > 0 && has_next) {
      const std::int64_t offset = (s - 1) * segment;
      schedule.send(rank + 1, Block{onward, offset, std::min(segment, count - offset)});
    }
    if (s == segments || !has_prev) continue;
    const std::int64_t offset = s * segment, length = std::min(segment, count - offset);
    const Block prefix{kOutput, offset, length};
    if (prefix_into_output) {
      schedule.receive(rank - 1, prefix).reduce_right(Block{kInput, offset, length}, prefix);
    } else if (inclusive) {
      const Block before{arriving, 0, length};
      schedule.receive(rank - 1, before).reduce_left(before, prefix);
    } else {
      schedule.receive(rank - 1, prefix);
      if (has_next) schedule.reduce_left(prefix, Block{onward, offset, length});
    }
  }
  return schedule;
}

}  // namespace

Schedule scan_linear(const Shape& shape, std::int64_t count, bool in_place, std::int64_t segment,
                     bool commutative) {
  return chain(shape, count, in_place, true, segment, commutative);
}

Schedule exscan_linear(const Shape& shape, std::int64_t count, bool in_place, std::int64_t segment,
                       bool commutative) {
  return chain(shape, count, in_place, false, segment, commutative);
}

}  // namespace scomm::coll
