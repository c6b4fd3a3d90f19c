#include "scomm/topo/bcast_multilevel.hpp"

#include <algorithm>

#include "scomm/coll/segments.hpp"
#include "scomm/topo/multilevel_tree.hpp"

namespace scomm::topo {

void add_bcast_multilevel(coll::Schedule& schedule, const Levels& levels, const LevelCosts& costs,
                          const coll::Shape& shape, coll::Block data, std::int64_t bytes,
                          std::int64_t unit) {
  const std::int64_t whole = std::max<std::int64_t>(unit, 1);
  const std::int64_t per_segment = coll::segment_elements(bytes, data.count / whole) * whole;
  const std::int64_t segments =
      std::max<std::int64_t>(1, (data.count + per_segment - 1) / per_segment);
  const std::int64_t segment_bytes = bytes / segments;
  const MultilevelNode node =
      multilevel_node(levels, costs, shape.rank, shape.root, segment_bytes, segments);
  auto segment = [&](std::int64_t s) {
    const std::int64_t first = s * per_segment;
    return coll::Block{data.slot, data.offset + first, std::min(per_segment, data.count - first)};
  };
  // Round t receives segment t and passes segment t - 1 on; the root passes segment t.
  const bool receives = node.parent >= 0;
  const std::int64_t lag = receives ? 1 : 0;
  for (std::int64_t t = 0; t < segments + lag; ++t) {
    const bool receiving = receives && t < segments;
    const bool passing = t >= lag && !node.children.empty();
    if (!receiving && !passing) continue;
    schedule.next_round();
    if (receiving) schedule.receive(node.parent, segment(t));
    if (passing)
      for (int child : node.children) schedule.send(child, segment(t - lag));
  }
}

coll::Schedule bcast_multilevel(const Levels& levels, const LevelCosts& costs,
                                const coll::Shape& shape, std::int64_t count, std::int64_t bytes) {
  coll::Schedule schedule;
  add_bcast_multilevel(schedule, levels, costs, shape, coll::Block{coll::kOutput, 0, count}, bytes);
  return schedule;
}

}  // namespace scomm::topo
