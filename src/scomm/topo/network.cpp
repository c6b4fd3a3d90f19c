#include "scomm/topo/network.hpp"

#include <algorithm>
#include <utility>

namespace scomm::topo {
namespace {

// Calls visit(above, level) for each stage of the tree keeping the levels of `kept`: the stage
// joins the clusters of `level` (depth: the ranks) inside one cluster of `above` (-1: the whole
// communicator), the last level kept before it; its widest link is the one between clusters of
// level above + 1.
template <typename Visit>
void for_each_stage(int depth, unsigned kept, Visit&& visit) {
  int above = -1;
  for (int level = 0; level <= depth; ++level) {
    if (level < depth && (kept >> level & 1u) == 0) continue;
    visit(above, level);
    above = level;
  }
}

}  // namespace

Network::Network(Levels levels, LevelCosts costs)
    : levels_(std::move(levels)), costs_(std::move(costs)) {}

void Network::count_participants() const {
  const int depth = levels_.depth();
  participants_.assign(static_cast<std::size_t>(depth + 1),
                       std::vector<int>(static_cast<std::size_t>(depth + 1), 0));
  for (int above = -1; above < depth; ++above) {
    auto& row = participants_[static_cast<std::size_t>(above + 1)];
    const int holders = above < 0 ? 1 : levels_.clusters(above);
    for (int level = above + 1; level <= depth; ++level) {
      std::vector<int> count(static_cast<std::size_t>(holders), 0);
      if (level == depth) {
        for (int c = 0; c < holders; ++c)
          count[static_cast<std::size_t>(c)] =
              above < 0 ? levels_.size() : levels_.cluster_size(above, c);
      } else {
        for (int c = 0; c < levels_.clusters(level); ++c) {
          int holder = above < 0 ? 0 : c;  // c's cluster of level `above`
          for (int l = level; above >= 0 && l > above; --l) holder = levels_.parent(l, holder);
          ++count[static_cast<std::size_t>(holder)];
        }
      }
      row[static_cast<std::size_t>(level)] = *std::max_element(count.begin(), count.end());
    }
  }
}

double Network::modelled_time(unsigned kept, std::int64_t bytes, std::int64_t segments) const {
  if (participants_.empty()) count_participants();
  double time = 0;
  for_each_stage(levels_.depth(), kept, [&](int above, int level) {
    const int n =
        participants_[static_cast<std::size_t>(above + 1)][static_cast<std::size_t>(level)];
    time += costs_.stage_time(above + 1, n, bytes, segments);
  });
  return time;
}

const Network& Network::for_message(std::int64_t bytes, std::int64_t segments) const {
  const int depth = levels_.depth();
  if (depth == 0 || depth > kMaxChoiceDepth) return *this;
  const unsigned all = (1u << depth) - 1;
  unsigned best = all;
  double best_time = modelled_time(all, bytes, segments);
  for (unsigned kept = 0; kept < all; ++kept) {
    const double time = modelled_time(kept, bytes, segments);
    if (time < best_time) {
      best = kept;
      best_time = time;
    }
  }
  return best == all ? *this : reduced(best);
}

const Network& Network::reduced(unsigned kept) const {
  std::unique_ptr<Network>& slot = reduced_[kept];
  if (slot) return *slot;
  std::vector<int> levels;
  LevelCosts costs;
  for_each_stage(levels_.depth(), kept, [&](int above, int level) {
    costs.links.push_back(costs_.link(above + 1));
    if (level < levels_.depth()) levels.push_back(level);
  });
  slot = std::make_unique<Network>(levels_.keep(levels), std::move(costs));
  return *slot;
}

}  // namespace scomm::topo
