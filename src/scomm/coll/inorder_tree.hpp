// An in-order binary tree over the ranks 0..size-1: its root splits the ranks into those before
// and those after it, each side a balanced in-order tree rooted at its middle rank. Every subtree
// covers a contiguous range of ranks with its root inside, so combining left subtree, root and
// right subtree in that order follows rank order: non-commutative operations reduce correctly
// whatever the root, and the depth stays ceil(log2 size) + 1 at most.
#pragma once

namespace scomm::coll {

struct InorderNode {
  int parent = -1;          // -1 at the root
  int left = -1;            // child covering the lower ranks of the subtree, -1 for none
  int right = -1;           // child covering the higher ranks, -1 for none
  int first = 0, last = 0;  // the subtree's ranks
};

// The node of `rank` in the in-order tree over [0, size) rooted at `root`; O(log size).
InorderNode inorder_node(int rank, int size, int root);

}  // namespace scomm::coll
