#include "scomm/coll/reduce_binomial.hpp"

#include "scomm/coll/bcast_binomial.hpp"

namespace scomm::coll {

Schedule reduce_binomial(const Shape& shape, std::int64_t count, bool in_place, bool commutative) {
  Schedule schedule;
  const int rank = shape.rank;
  const bool is_root = rank == shape.root;
  const Shape tree{rank, shape.size, commutative ? shape.root : 0};
  const int me = tree.relative(rank);
  const BinomialNode node = binomial_node(me, shape.size);
  const bool has_children = me + 1 < shape.size && node.mask > 1;
  // The partial result: the root's output; a temporary where children add to it; a leaf sends
  // its input as it is.
  Block partial{kInput, 0, count};
  if (is_root) {
    partial = Block{kOutput, 0, count};
    if (!in_place) schedule.copy(Block{kInput, 0, count}, partial);
  } else if (has_children) {
    partial = Block{schedule.add_temp(TypeId::kRecv, count), 0, count};
    schedule.copy(Block{kInput, 0, count}, partial);
  }
  if (has_children) {
    const Block incoming{schedule.add_temp(TypeId::kRecv, count), 0, count};
    // Child me + m holds relative ranks [me + m, me + 2m): above everything reduced so far.
    for (int m = 1; m < node.mask && me + m < shape.size; m *= 2)
      schedule.next_round()
          .receive(tree.absolute(me + m), incoming)
          .reduce_right(incoming, partial);
  }
  if (node.parent >= 0) schedule.next_round().send(tree.absolute(node.parent), partial);
  if (tree.root != shape.root) {  // rank 0 reduced in rank order for the root
    if (rank == tree.root) schedule.next_round().send(shape.root, partial);
    if (is_root) schedule.next_round().receive(tree.root, Block{kOutput, 0, count});
  }
  return schedule;
}

}  // namespace scomm::coll
