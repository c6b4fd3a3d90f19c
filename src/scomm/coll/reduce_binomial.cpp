#include "scomm/coll/reduce_binomial.hpp"

#include <optional>

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
  // its input as it is. The first child's data is received straight into it and the own input
  // reduced on its left, instead of copying the input there first: one pass over the vector
  // less.
  const Block input{kInput, 0, count};
  Block partial = input;
  bool holds_own = true;
  if (is_root) {
    partial = Block{kOutput, 0, count};
    holds_own = in_place;
  } else if (has_children) {
    partial = Block{schedule.add_temp(TypeId::kRecv, count), 0, count};
    holds_own = false;
  }
  std::optional<Block> incoming;
  // Child me + m holds relative ranks [me + m, me + 2m): above everything reduced so far.
  for (int m = 1; m < node.mask && me + m < shape.size; m *= 2) {
    schedule.next_round();
    if (!holds_own) {
      schedule.receive(tree.absolute(me + m), partial).reduce_left(input, partial);
      holds_own = true;
      continue;
    }
    if (!incoming) incoming = Block{schedule.add_temp(TypeId::kRecv, count), 0, count};
    schedule.receive(tree.absolute(me + m), *incoming).reduce_right(*incoming, partial);
  }
  if (!holds_own) schedule.copy(input, partial);  // a root without children
  if (node.parent >= 0) schedule.next_round().send(tree.absolute(node.parent), partial);
  if (tree.root != shape.root) {  // rank 0 reduced in rank order for the root
    if (rank == tree.root) schedule.next_round().send(shape.root, partial);
    if (is_root) schedule.next_round().receive(tree.root, Block{kOutput, 0, count});
  }
  return schedule;
}

}  // namespace scomm::coll
