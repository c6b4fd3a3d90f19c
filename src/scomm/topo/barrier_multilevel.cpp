#include "scomm/topo/barrier_multilevel.hpp"

#include "scomm/topo/multilevel_tree.hpp"

namespace scomm::topo {

coll::Schedule barrier_multilevel(const Levels& levels, const LevelCosts& costs,
                                  const coll::Shape& shape) {
  coll::Schedule schedule;
  const MultilevelNode node = multilevel_node(levels, costs, shape.rank, 0, 0);
  const coll::Block empty{coll::kOutput, 0, 0};
  if (!node.children.empty()) {
    schedule.next_round();
    for (int child : node.children) schedule.receive(child, empty);
  }
  if (node.parent >= 0) schedule.next_round().send(node.parent, empty).receive(node.parent, empty);
  if (!node.children.empty()) {
    schedule.next_round();
    for (int child : node.children) schedule.send(child, empty);
  }
  return schedule;
}

}  // namespace scomm::topo
