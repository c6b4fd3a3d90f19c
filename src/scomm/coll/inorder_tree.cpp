#include "scomm/coll/inorder_tree.hpp"

namespace scomm::coll {
namespace {

// The root of a balanced subtree over [first, last], -1 when empty.
int middle(int first, int last) {
  return first > last ? -1 : first + (last - first) / 2;
}

}  // namespace

InorderNode inorder_node(int rank, int size, int root) {
  InorderNode node{-1, -1, -1, 0, size - 1};
  int current = root;
  while (current != rank) {  // descend towards `rank`
    node.parent = current;
    if (rank < current)
      node.last = current - 1;
    else
      node.first = current + 1;
    current = middle(node.first, node.last);
  }
  node.left = middle(node.first, rank - 1);
  node.right = middle(rank + 1, node.last);
  return node;
}

}  // namespace scomm::coll
