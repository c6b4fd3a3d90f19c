#include "scomm/topo/gather_multilevel.hpp"

#include <numeric>

#include "scomm/topo/multilevel_tree.hpp"

namespace scomm::topo {
namespace {

// Receives every child's subtree in receiving order, after the receiver's own block.
void receive_children(coll::Schedule& schedule, const MultilevelNode& node, coll::Slot slot,
                      std::int64_t per_block) {
  schedule.next_round();
  std::int64_t at = per_block;
  for (std::size_t i = node.children.size(); i-- > 0;) {
    const std::int64_t count = node.subtree_ranks[i] * per_block;
    schedule.receive(node.children[i], coll::Block{slot, at, count});
    at += count;
  }
}

// The root's temporary holds the other ranks' blocks in receiving order: copy them home.
void place_in_rank_order(coll::Schedule& schedule, const std::vector<Run>& runs, coll::Slot run,
                         std::int64_t recvcount) {
  std::int64_t at = recvcount;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const int first = i == 0 ? runs[i].first + 1 : runs[i].first;  // the root's own block
    const std::int64_t count = (i == 0 ? runs[i].count - 1 : runs[i].count) * recvcount;
    if (count == 0) continue;
    schedule.copy(coll::Block{run, at, count},
                  coll::Block{coll::kOutput, first * recvcount, count});
    at += count;
  }
}

}  // namespace

void add_gather_multilevel(coll::Schedule& schedule, const Levels& levels, const LevelCosts& costs,
                           const coll::Shape& shape, coll::Block block, coll::TypeId type,
                           std::int64_t recvcount, std::int64_t bytes) {
  const MultilevelNode node = multilevel_node(levels, costs, shape.rank, shape.root, bytes);
  const std::int64_t ranks =
      1 + std::accumulate(node.subtree_ranks.begin(), node.subtree_ranks.end(), std::int64_t{0});
  if (shape.rank == shape.root) {
    const coll::Block mine{coll::kOutput, shape.root * recvcount, recvcount};
    if (block.slot != mine.slot || block.offset != mine.offset) schedule.copy(block, mine);
    if (node.children.empty()) return;
    const coll::Slot run = schedule.add_temp(coll::TypeId::kRecv, ranks * recvcount);
    receive_children(schedule, node, run, recvcount);
    place_in_rank_order(schedule, subtree_runs(levels, costs, shape.rank, shape.root, bytes), run,
                        recvcount);
    return;
  }
  coll::Block subtree = block;
  if (!node.children.empty()) {
    subtree = coll::Block{schedule.add_temp(type, ranks * block.count), 0, ranks * block.count};
    schedule.copy(block, coll::Block{subtree.slot, 0, block.count});
    receive_children(schedule, node, subtree.slot, block.count);
  }
  schedule.next_round().send(node.parent, subtree);
}

coll::Schedule gather_multilevel(const Levels& levels, const LevelCosts& costs,
                                 const coll::Shape& shape, std::int64_t sendcount,
                                 std::int64_t recvcount, std::int64_t bytes, bool in_place) {
  coll::Schedule schedule;
  const bool own_in_place = in_place && shape.rank == shape.root;
  const coll::Block block = own_in_place
                                ? coll::Block{coll::kOutput, shape.root * recvcount, recvcount}
                                : coll::Block{coll::kInput, 0, sendcount};
  add_gather_multilevel(schedule, levels, costs, shape, block,
                        own_in_place ? coll::TypeId::kRecv : coll::TypeId::kSend, recvcount, bytes);
  return schedule;
}

}  // namespace scomm::topo
