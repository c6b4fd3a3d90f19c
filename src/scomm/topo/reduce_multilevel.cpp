#include "scomm/topo/reduce_multilevel.hpp"

#include <iterator>

#include "scomm/coll/reduce_binomial.hpp"
#include "scomm/topo/multilevel_tree.hpp"

namespace scomm::topo {

bool reduce_multilevel_applies(const Levels& levels, bool commutative) {
  return commutative || levels.contiguous();
}

void add_reduce_multilevel(coll::Schedule& schedule, const Levels& levels, const LevelCosts& costs,
                           const coll::Shape& shape, coll::Block input, coll::Block result,
                           std::int64_t bytes) {
  const MultilevelNode node = multilevel_node(levels, costs, shape.rank, shape.root, bytes);
  const bool is_root = shape.rank == shape.root;
  const std::int64_t count = input.count;
  // The partial result: the root's result; a temporary where children add to it; a leaf sends
  // its input as it is.
  coll::Block partial = input;
  if (is_root) {
    partial = result;
  } else if (!node.children.empty()) {
    partial = coll::Block{schedule.add_temp(coll::TypeId::kRecv, count), 0, count};
  }
  if (partial.slot != input.slot || partial.offset != input.offset) schedule.copy(input, partial);
  if (!node.children.empty()) {
    const coll::Block incoming{schedule.add_temp(coll::TypeId::kRecv, count), 0, count};
    // Children in reverse sending order: each one's subtree follows what is reduced so far.
    for (auto child = node.children.rbegin(); child != node.children.rend(); ++child)
      schedule.next_round().receive(*child, incoming).reduce_right(incoming, partial);
  }
  if (node.parent >= 0) schedule.next_round().send(node.parent, partial);
}

coll::Schedule reduce_multilevel(const Levels& levels, const LevelCosts& costs,
                                 const coll::Shape& shape, std::int64_t count, std::int64_t bytes,
                                 bool in_place, bool commutative) {
  if (!reduce_multilevel_applies(levels, commutative))
    return coll::reduce_binomial(shape, count, in_place, commutative);
  coll::Schedule schedule;
  const bool is_root = shape.rank == shape.root;
  const coll::Block output{coll::kOutput, 0, count};
  const coll::Block input = is_root && in_place ? output : coll::Block{coll::kInput, 0, count};
  const coll::Shape tree{shape.rank, shape.size, commutative ? shape.root : 0};
  // Rank 0 reduces in rank order for another root: into a temporary (its output may be absent).
  const bool relays = shape.rank == tree.root && !is_root;
  const coll::Block result =
      relays ? coll::Block{schedule.add_temp(coll::TypeId::kRecv, count), 0, count} : output;
  add_reduce_multilevel(schedule, levels, costs, tree, input, result, bytes);
  if (relays) schedule.next_round().send(shape.root, result);
  if (is_root && tree.root != shape.root) schedule.next_round().receive(tree.root, output);
  return schedule;
}

}  // namespace scomm::topo
