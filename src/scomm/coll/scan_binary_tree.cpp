#include "scomm/coll/scan_binary_tree.hpp"

#include "scomm/coll/inorder_tree.hpp"

namespace scomm::coll {
namespace {

class TreeScanBuilder {
 public:
  TreeScanBuilder(const Shape& shape, std::int64_t count, bool in_place, bool inclusive)
      : node_(inorder_node(shape.rank, shape.size, (shape.size - 1) / 2)),
        count_(count),
        in_place_(in_place),
        inclusive_(inclusive),
        // Every rank before the subtree: none when it starts at rank 0.
        has_prefix_(node_.first > 0) {}

  Schedule build() && {
    if (count_ == 0) return std::move(schedule_);
    // Q = left subtree op own: the inclusive result without the prefix. Where it lives: the
    // output for scan; for exscan the input itself when there is no left subtree and the
    // output (which the result overwrites) is not the input, else a temporary.
    left_and_own_ = inclusive_ ? kOutput : node_.left < 0 && !in_place_ ? kInput : temp();
    up_sweep();
    down_sweep();
    return std::move(schedule_);
  }

 private:
  void up_sweep() {
    if (node_.left >= 0 || node_.right >= 0) schedule_.next_round();
    if (node_.left >= 0) schedule_.receive(node_.left, block(from_left_ = temp()));
    if (node_.right >= 0) schedule_.receive(node_.right, block(from_right_ = temp()));
    if (left_and_own_ != kInput && !(inclusive_ && in_place_))
      schedule_.copy(block(kInput), block(left_and_own_));
    if (node_.left >= 0) schedule_.reduce_left(block(from_left_), block(left_and_own_));
    if (node_.parent < 0) return;
    // The subtree's reduction, Q op right subtree, goes up.
    Slot subtree = left_and_own_;
    if (node_.right >= 0) {
      subtree = temp();
      schedule_.copy(block(left_and_own_), block(subtree));
      schedule_.reduce_right(block(from_right_), block(subtree));
    }
    schedule_.next_round().send(node_.parent, block(subtree));
  }

  void down_sweep() {
    const Slot prefix = has_prefix_ ? temp() : kInput;
    if (has_prefix_) schedule_.next_round().receive(node_.parent, block(prefix));
    if (inclusive_) {
      if (has_prefix_) schedule_.reduce_left(block(prefix), block(kOutput));
    } else {
      exclusive_result(prefix);
    }
    // What follows the prefix, for the right child: prefix op Q (the output, for scan).
    Slot through_me = inclusive_ ? kOutput : left_and_own_;
    if (!inclusive_ && has_prefix_ && node_.right >= 0) {
      if (through_me == kInput) {  // read-only: reduce into a copy
        through_me = temp();
        schedule_.copy(block(kInput), block(through_me));
      }
      schedule_.reduce_left(block(prefix), block(through_me));
    }
    if ((node_.left >= 0 && has_prefix_) || node_.right >= 0) schedule_.next_round();
    if (node_.left >= 0 && has_prefix_) schedule_.send(node_.left, block(prefix));
    if (node_.right >= 0) schedule_.send(node_.right, block(through_me));
  }

  // exscan: prefix op left subtree; rank 0 (no prefix, no left subtree) keeps its output.
  void exclusive_result(Slot prefix) {
    if (node_.left >= 0) {
      schedule_.copy(block(from_left_), block(kOutput));
      if (has_prefix_) schedule_.reduce_left(block(prefix), block(kOutput));
    } else if (has_prefix_) {
      schedule_.copy(block(prefix), block(kOutput));
    }
  }

  Slot temp() { return schedule_.add_temp(TypeId::kRecv, count_); }
  Block block(Slot slot) const { return {slot, 0, count_}; }

  Schedule schedule_;
  InorderNode node_;
  std::int64_t count_;
  bool in_place_, inclusive_, has_prefix_;
  Slot left_and_own_ = kInput, from_left_ = kInput, from_right_ = kInput;
};

}  // namespace

Schedule scan_binary_tree(const Shape& shape, std::int64_t count, bool in_place) {
  return TreeScanBuilder(shape, count, in_place, true).build();
}

Schedule exscan_binary_tree(const Shape& shape, std::int64_t count, bool in_place) {
  return TreeScanBuilder(shape, count, in_place, false).build();
}

}  // namespace scomm::coll
