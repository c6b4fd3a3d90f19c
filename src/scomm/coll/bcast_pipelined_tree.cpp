#include "scomm/coll/bcast_pipelined_tree.hpp"

#include <algorithm>

namespace scomm::coll {

void add_bcast_pipelined_tree(Schedule& schedule, const Shape& shape, Block data,
                              std::int64_t segment) {
  const int me = shape.relative(shape.rank);
  const std::int64_t segments = std::max<std::int64_t>(1, (data.count + segment - 1) / segment);
  auto piece = [&](std::int64_t s) {
    const std::int64_t first = s * segment;
    return Block{data.slot, data.offset + first,
                 std::clamp<std::int64_t>(data.count - first, 0, segment)};
  };
  // Round s receives segment s and forwards segment s - 1: the two never overlap.
  const bool has_parent = me != 0;
  for (std::int64_t s = 0; s <= segments; ++s) {
    schedule.next_round();
    const bool receives = has_parent && s < segments;
    if (receives) schedule.receive(shape.absolute((me - 1) / 2), piece(s));
    const std::int64_t forward = has_parent ? s - 1 : s;
    if (forward < 0 || forward >= segments) continue;
    int children = 0;
    for (const int child : {2 * me + 1, 2 * me + 2})
      if (child < shape.size) {
        schedule.send(shape.absolute(child), piece(forward));
        ++children;
      }
    // A child posts its receive of a segment at the start of its round for it, which waits for
    // no sibling: sends alone may also complete one at a time (Round::one_by_one).
    if (children > 1 && !receives) schedule.one_by_one();
  }
}

Schedule bcast_pipelined_tree(const Shape& shape, std::int64_t count, std::int64_t segment) {
  Schedule schedule;
  add_bcast_pipelined_tree(schedule, shape, Block{kOutput, 0, count}, segment);
  return schedule;
}

}  // namespace scomm::coll
