#include "scomm/topo/scan_multilevel.hpp"

#include <cstddef>
#include <vector>

#include "scomm/coll/scan_binary_tree.hpp"
#include "scomm/topo/multilevel_tree.hpp"

namespace scomm::topo {
namespace {

class PrefixSweep {
 public:
  PrefixSweep(const Levels& levels, const LevelCosts& costs, const coll::Shape& shape,
              std::int64_t count, std::int64_t bytes, bool in_place)
      : node_(multilevel_node(levels, costs, shape.rank, 0, bytes)),
        count_(count),
        input_{in_place ? coll::kOutput : coll::kInput, 0, count},
        output_{coll::kOutput, 0, count} {
    // Rooted at rank 0 on contiguous levels, the children in reverse sending order hold the
    // consecutive rank ranges after this rank.
    ascending_.assign(node_.children.rbegin(), node_.children.rend());
  }

  coll::Schedule build(bool inclusive) {
    up_sweep();
    coll::Schedule& s = schedule_;
    const bool has_parent = node_.parent >= 0;
    const coll::Block before = has_parent ? temp() : coll::Block{};
    // The reduction through this rank: the first child's prefix, and the scan's result.
    const coll::Block through = inclusive ? output_ : temp();
    if (has_parent) s.next_round().send(node_.parent, subtree_).receive(node_.parent, before);
    if (through.slot != input_.slot) s.copy(input_, through);
    if (has_parent) {
      s.reduce_left(before, through);
      // Each later child's prefix: everything before this subtree, then what precedes the child.
      for (std::size_t i = 0; i + 1 < partials_.size(); ++i) s.reduce_left(before, partials_[i]);
      if (!inclusive) s.copy(before, output_);
    }
    if (ascending_.empty()) return std::move(schedule_);
    s.next_round().send(ascending_[0], through);
    for (std::size_t i = 1; i < ascending_.size(); ++i) s.send(ascending_[i], partials_[i - 1]);
    return std::move(schedule_);
  }

 private:
  coll::Block temp() { return {schedule_.add_temp(coll::TypeId::kRecv, count_), 0, count_}; }

  // partials_[i]: this rank's input reduced with the subtrees of children 0..i, in rank order.
  void up_sweep() {
    subtree_ = input_;
    if (ascending_.empty()) return;
    schedule_.next_round();
    for (int child : ascending_) {
      const coll::Block partial = temp();
      schedule_.receive(child, partial);
      partials_.push_back(partial);
    }
    for (const coll::Block& partial : partials_) {
      schedule_.reduce_left(subtree_, partial);
      subtree_ = partial;
    }
  }

  MultilevelNode node_;
  std::vector<int> ascending_;
  std::int64_t count_;
  coll::Block input_, output_, subtree_;
  std::vector<coll::Block> partials_;
  coll::Schedule schedule_;
};

}  // namespace

bool scan_multilevel_applies(const Levels& levels) {
  return levels.contiguous();
}

coll::Schedule scan_multilevel(const Levels& levels, const LevelCosts& costs,
                               const coll::Shape& shape, std::int64_t count, std::int64_t bytes,
                               bool in_place) {
  if (!scan_multilevel_applies(levels)) return coll::scan_binary_tree(shape, count, in_place);
  return PrefixSweep(levels, costs, shape, count, bytes, in_place).build(true);
}

coll::Schedule exscan_multilevel(const Levels& levels, const LevelCosts& costs,
                                 const coll::Shape& shape, std::int64_t count, std::int64_t bytes,
                                 bool in_place) {
  if (!scan_multilevel_applies(levels)) return coll::exscan_binary_tree(shape, count, in_place);
  return PrefixSweep(levels, costs, shape, count, bytes, in_place).build(false);
}

}  // namespace scomm::topo
