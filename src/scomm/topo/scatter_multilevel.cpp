#include "scomm/topo/scatter_multilevel.hpp"

#include <numeric>
#include <vector>

#include "scomm/topo/multilevel_tree.hpp"

namespace scomm::topo {
namespace {

// Sends every child its subtree's blocks, laid out in receiving order after the sender's own.
void send_children(coll::Schedule& schedule, const MultilevelNode& node, coll::Slot slot,
                   std::int64_t per_block) {
  std::vector<std::int64_t> offsets(node.children.size());
  std::int64_t at = per_block;
  for (std::size_t i = node.children.size(); i-- > 0;) {
    offsets[i] = at;
    at += node.subtree_ranks[i] * per_block;
  }
  schedule.next_round();
  for (std::size_t i = 0; i < node.children.size(); ++i)
    schedule.send(node.children[i],
                  coll::Block{slot, offsets[i], node.subtree_ranks[i] * per_block});
}

// The root's input in rank order, packed into the receiving order of its subtree (its own
// block's place left empty).
void pack_from_rank_order(coll::Schedule& schedule, const std::vector<Run>& runs, coll::Slot run,
                          std::int64_t sendcount) {
  std::int64_t at = sendcount;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const int first = i == 0 ? runs[i].first + 1 : runs[i].first;
    const std::int64_t count = (i == 0 ? runs[i].count - 1 : runs[i].count) * sendcount;
    if (count == 0) continue;
    schedule.copy(coll::Block{coll::kInput, first * sendcount, count}, coll::Block{run, at, count});
    at += count;
  }
}

}  // namespace

coll::Schedule scatter_multilevel(const Levels& levels, const LevelCosts& costs,
                                  const coll::Shape& shape, std::int64_t sendcount,
                                  std::int64_t recvcount, std::int64_t bytes, bool in_place) {
  coll::Schedule schedule;
  const MultilevelNode node = multilevel_node(levels, costs, shape.rank, shape.root, bytes);
  const std::int64_t ranks =
      1 + std::accumulate(node.subtree_ranks.begin(), node.subtree_ranks.end(), std::int64_t{0});
  const coll::Block output{coll::kOutput, 0, recvcount};
  if (shape.rank == shape.root) {
    if (!node.children.empty()) {
      const coll::Slot run = schedule.add_temp(coll::TypeId::kSend, ranks * sendcount);
      pack_from_rank_order(schedule, subtree_runs(levels, costs, shape.rank, shape.root, bytes),
                           run, sendcount);
      send_children(schedule, node, run, sendcount);
    }
    // The root's own block last: where it cannot fit (counts that disagree at the root), the
    // copy's truncation then fails the root once every other rank has its block, as scomm's
    // other scatters do, instead of stopping the root before it sends.
    if (!in_place)
      schedule.copy(coll::Block{coll::kInput, shape.root * sendcount, sendcount}, output);
    return schedule;
  }
  if (node.children.empty()) {
    schedule.next_round().receive(node.parent, output);
    return schedule;
  }
  const coll::Slot run = schedule.add_temp(coll::TypeId::kRecv, ranks * recvcount);
  schedule.next_round()
      .receive(node.parent, coll::Block{run, 0, ranks * recvcount})
      .copy(coll::Block{run, 0, recvcount}, output);
  send_children(schedule, node, run, recvcount);
  return schedule;
}

}  // namespace scomm::topo
