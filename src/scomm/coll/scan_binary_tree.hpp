// Binary-tree prefix reduction (up-sweep, down-sweep), inclusive (scan) or exclusive (exscan),
// over the balanced in-order tree of inorder_tree.hpp. Up: a rank sends its parent the reduction
// of its subtree (left subtree, own, right subtree). Down: it receives the reduction of every rank
// before its subtree, forms its result, and sends its left child that prefix and its right child
// the prefix through itself. 2 (depth) steps, but every rank sends and receives at most three
// vectors instead of log2 p: the choice for long vectors. Subtrees are contiguous rank ranges, so
// any operation.
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// As scan_recursive_doubling / exscan_recursive_doubling (scan_recursive_doubling.hpp).
Schedule scan_binary_tree(const Shape& shape, std::int64_t count, bool in_place);
Schedule exscan_binary_tree(const Shape& shape, std::int64_t count, bool in_place);

}  // namespace scomm::coll
