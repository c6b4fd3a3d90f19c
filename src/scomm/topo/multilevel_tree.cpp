#include "scomm/topo/multilevel_tree.hpp"

#include <algorithm>
#include <span>

#include "scomm/coll/bcast_binomial.hpp"

namespace scomm::topo {
namespace {

// The participants of one stage, in the cluster of level stage - 1 that holds a given rank:
// representatives of that cluster's subclusters, or the members of an innermost cluster.
class StageGroup {
 public:
  StageGroup(const Levels& levels, int stage, int rank, int root)
      : levels_(levels), stage_(stage), root_(root) {
    const int above = stage - 1;
    cluster_ = above < 0 ? 0 : levels.color(rank, above);
    if (stage < levels.depth()) subclusters_ = levels.subclusters(above, cluster_);
    root_index_ = index_of(above < 0 ? root : representative(levels, above, cluster_, root));
  }

  int size() const {
    if (stage_ < levels_.depth()) return static_cast<int>(subclusters_.size());
    return levels_.depth() == 0 ? levels_.size() : levels_.cluster_size(stage_ - 1, cluster_);
  }
  // The participant standing for `rank` (a rank of this group's cluster).
  int index_of(int rank) const {
    if (stage_ < levels_.depth()) {
      const int cluster = levels_.color(rank, stage_);
      return static_cast<int>(std::lower_bound(subclusters_.begin(), subclusters_.end(), cluster) -
                              subclusters_.begin());
    }
    return levels_.depth() == 0 ? rank : levels_.index_in_cluster(rank, stage_ - 1);
  }
  // Ranks behind participant `index`: its whole cluster of level `stage`.
  int ranks_behind(int index) const {
    if (stage_ < levels_.depth())
      return levels_.cluster_size(stage_, subclusters_[static_cast<std::size_t>(index)]);
    return 1;
  }
  // Ranks behind the relative participants first, ..., first + count - 1.
  int ranks_behind_relative(int first, int count) const {
    int ranks = 0;
    for (int i = first; i < first + count; ++i) ranks += ranks_behind((i + root_index_) % size());
    return ranks;
  }
  int participant(int index) const {
    if (stage_ < levels_.depth())
      return representative(levels_, stage_, subclusters_[static_cast<std::size_t>(index)], root_);
    return levels_.depth() == 0 ? index : levels_.member(stage_ - 1, cluster_, index);
  }
  // Relative to the stage's root (the representative of the cluster above), and back.
  int relative(int index) const { return (index - root_index_ + size()) % size(); }
  int absolute(int relative_index) const {
    return participant((relative_index + root_index_) % size());
  }

 private:
  const Levels& levels_;
  int stage_;
  int root_;
  int cluster_ = 0;
  std::span<const int> subclusters_;
  int root_index_ = 0;
};

bool participates(const Levels& levels, int stage, int rank, int root) {
  return stage == levels.depth() ||
         representative(levels, stage, levels.color(rank, stage), root) == rank;
}

// Adds rank's parent (if it has one in this stage) and children in the stage's tree.
void add_stage(const StageGroup& group, StageShape shape, int stage, int rank,
               MultilevelNode& node) {
  const int n = group.size();
  const int me = group.relative(group.index_of(rank));
  if (shape == StageShape::kFlat) {
    if (me != 0) {
      node.parent = group.absolute(0);
      node.parent_stage = stage;
      return;
    }
    for (int child = n - 1; child > 0; --child) {
      node.children.push_back(group.absolute(child));
      node.subtree_ranks.push_back(group.ranks_behind_relative(child, 1));
    }
    return;
  }
  const coll::BinomialNode binomial = coll::binomial_node(me, n);
  if (binomial.parent >= 0) {
    node.parent = group.absolute(binomial.parent);
    node.parent_stage = stage;
  }
  for (int m = binomial.mask / 2; m > 0; m /= 2) {
    if (me + m >= n) continue;
    node.children.push_back(group.absolute(me + m));
    node.subtree_ranks.push_back(group.ranks_behind_relative(me + m, std::min(m, n - me - m)));
  }
}

void append_subtree(const Levels& levels, const LevelCosts& costs, int rank, int root,
                    std::int64_t bytes, std::vector<Run>& runs) {
  if (!runs.empty() && runs.back().first + runs.back().count == rank)
    ++runs.back().count;
  else
    runs.push_back({rank, 1});
  const MultilevelNode node = multilevel_node(levels, costs, rank, root, bytes);
  for (auto child = node.children.rbegin(); child != node.children.rend(); ++child)
    append_subtree(levels, costs, *child, root, bytes, runs);
}

}  // namespace

std::vector<Run> subtree_runs(const Levels& levels, const LevelCosts& costs, int rank, int root,
                              std::int64_t bytes) {
  std::vector<Run> runs;
  append_subtree(levels, costs, rank, root, bytes, runs);
  return runs;
}

int representative(const Levels& levels, int level, int cluster, int root) {
  return levels.color(root, level) == cluster ? root : levels.lowest_rank(level, cluster);
}

MultilevelNode multilevel_node(const Levels& levels, const LevelCosts& costs, int rank, int root,
                               std::int64_t bytes, std::int64_t segments) {
  MultilevelNode node;
  for (int stage = 0; stage <= levels.depth(); ++stage) {
    if (!participates(levels, stage, rank, root)) continue;
    const StageGroup group(levels, stage, rank, root);
    add_stage(group, costs.shape(stage, group.size(), bytes, segments), stage, rank, node);
  }
  return node;
}

}  // namespace scomm::topo
