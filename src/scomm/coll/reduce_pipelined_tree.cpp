#include "scomm/coll/reduce_pipelined_tree.hpp"

#include <algorithm>

#include "scomm/coll/inorder_tree.hpp"

namespace scomm::coll {

Schedule reduce_pipelined_tree(const Shape& shape, std::int64_t count, bool in_place,
                               std::int64_t segment) {
  Schedule schedule;
  if (count == 0) return schedule;
  const InorderNode node = inorder_node(shape.rank, shape.size, shape.root);
  const bool is_root = node.parent < 0, has_children = node.left >= 0 || node.right >= 0;
  // The reduced segments: the output at the root, a temporary at inner ranks; a leaf sends its
  // input as it is.
  const Slot acc = is_root        ? kOutput
                   : has_children ? schedule.add_temp(TypeId::kRecv, count)
                                  : kInput;
  const bool copy_own = acc != kInput && !(is_root && in_place);
  const Slot from_left = node.left >= 0 ? schedule.add_temp(TypeId::kRecv, segment) : kInput;
  const Slot from_right = node.right >= 0 ? schedule.add_temp(TypeId::kRecv, segment) : kInput;
  const std::int64_t segments = (count + segment - 1) / segment;
  for (std::int64_t s = 0; s <= segments; ++s) {
    schedule.next_round();
    if (s > 0 && !is_root) {
      const std::int64_t offset = (s - 1) * segment;
      schedule.send(node.parent, Block{acc, offset, std::min(segment, count - offset)});
    }
    if (s == segments) break;
    const std::int64_t offset = s * segment, length = std::min(segment, count - offset);
    const Block mine{acc, offset, length};
    if (node.left >= 0) schedule.receive(node.left, Block{from_left, 0, length});
    if (node.right >= 0) schedule.receive(node.right, Block{from_right, 0, length});
    if (copy_own) schedule.copy(Block{kInput, offset, length}, mine);
    if (node.left >= 0) schedule.reduce_left(Block{from_left, 0, length}, mine);
    if (node.right >= 0) schedule.reduce_right(Block{from_right, 0, length}, mine);
  }
  return schedule;
}

}  // namespace scomm::coll
