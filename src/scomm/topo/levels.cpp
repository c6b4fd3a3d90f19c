#include "scomm/topo/levels.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "scomm/base/error.hpp"

namespace scomm::topo {
namespace {

[[noreturn]] void bad_argument(const std::string& what) {
  throw Error(ErrorClass::kArg, "topology levels: " + what);
}

// A cluster of the level above and a color of this level: one refined cluster.
struct RefinedKey {
  int parent;
  std::int64_t color;
  bool operator==(const RefinedKey&) const = default;
};
struct RefinedKeyHash {
  std::size_t operator()(const RefinedKey& key) const noexcept {
    return std::hash<std::int64_t>{}(key.color) * 0x9e3779b97f4a7c15ull ^
           static_cast<std::size_t>(key.parent);
  }
};

template <typename T>
std::size_t held(const std::vector<T>& v) noexcept {
  return v.capacity() * sizeof(T);
}

}  // namespace

void Levels::append(Level& level, int first, int count, int cluster) {
  if (count == 0) return;
  if (!level.run_cluster.empty() && level.run_cluster.back() == cluster) return;
  level.run_first.push_back(first);
  level.run_cluster.push_back(cluster);
}

Levels Levels::from_colors(std::vector<std::string> names,
                           const std::vector<std::vector<std::int64_t>>& colors) {
  if (names.size() != colors.size()) bad_argument("one name per level needed");
  const std::size_t ranks = colors.empty() ? 0 : colors.front().size();
  for (const auto& level : colors)
    if (level.size() != ranks) bad_argument("every level needs a color per rank");
  if (ranks > static_cast<std::size_t>(INT32_MAX)) bad_argument("too many ranks");
  const int size = static_cast<int>(ranks);
  std::vector<Level> levels(colors.size());
  std::vector<int> above(ranks, 0);  // each rank's refined cluster one level up
  for (std::size_t l = 0; l < colors.size(); ++l) {
    std::unordered_map<RefinedKey, int, RefinedKeyHash> numbers;
    for (int r = 0; r < size; ++r) {
      const auto [it, added] =
          numbers.try_emplace(RefinedKey{above[r], colors[l][r]}, static_cast<int>(numbers.size()));
      above[r] = it->second;
      append(levels[l], r, 1, above[r]);
    }
  }
  return assemble(std::move(names), size, std::move(levels));
}

Levels Levels::blocks(std::vector<std::string> names, const std::vector<int>& block_sizes,
                      int size) {
  if (names.size() != block_sizes.size()) bad_argument("one name per level needed");
  if (size < 0) bad_argument("negative size");
  std::vector<Level> levels(block_sizes.size());
  for (std::size_t l = 0; l < block_sizes.size(); ++l) {
    const int block = block_sizes[l];
    if (block <= 0) bad_argument("block sizes must be positive");
    if (l > 0 && block_sizes[l - 1] % block != 0)
      bad_argument("each block size must be a multiple of the next");
    for (int first = 0, cluster = 0; first < size; first += block, ++cluster)
      append(levels[l], first, std::min(block, size - first), cluster);
  }
  return assemble(std::move(names), size, std::move(levels));
}

Levels Levels::restrict(int size, const std::function<int(int)>& parent_rank) const {
  if (size < 0) bad_argument("negative size");
  std::vector<Level> levels(levels_.size());
  std::vector<std::vector<int>> renumber(levels_.size());
  std::vector<int> next(levels_.size(), 0);
  for (std::size_t l = 0; l < levels_.size(); ++l)
    renumber[l].assign(clusters(static_cast<int>(l)), -1);
  for (int r = 0; r < size; ++r) {
    const int p = parent_rank(r);
    if (p < 0 || p >= size_) bad_argument("a member's parent rank is out of range");
    for (std::size_t l = 0; l < levels_.size(); ++l) {
      int& number = renumber[l][color(p, static_cast<int>(l))];
      if (number < 0) number = next[l]++;
      append(levels[l], r, 1, number);
    }
  }
  return assemble(names_, size, std::move(levels));
}

Levels Levels::keep(const std::vector<int>& levels) const {
  std::vector<std::string> names;
  std::vector<Level> kept;
  for (const int l : levels) {
    const Level& from = level_at(l);
    names.push_back(names_[static_cast<std::size_t>(l)]);
    kept.push_back({});
    kept.back().run_first = from.run_first;
    kept.back().run_cluster = from.run_cluster;
  }
  return assemble(std::move(names), size_, std::move(kept));
}

Levels Levels::assemble(std::vector<std::string> names, int size, std::vector<Level> levels) {
  Levels result;
  result.names_ = std::move(names);
  result.size_ = size;
  result.levels_ = std::move(levels);
  for (Level& level : result.levels_) {
    const auto clusters =
        level.run_cluster.empty()
            ? 0
            : *std::max_element(level.run_cluster.begin(), level.run_cluster.end()) + 1;
    result.index_clusters(level, clusters);
  }
  result.link_levels();
  return result;
}

// Each cluster's runs in rank order, grouped by cluster (a counting sort of the runs).
void Levels::index_clusters(Level& level, int clusters) {
  const std::size_t runs = level.run_first.size();
  level.run_offset.assign(clusters + 1, 0);
  for (int cluster : level.run_cluster) ++level.run_offset[cluster + 1];
  for (int c = 0; c < clusters; ++c) level.run_offset[c + 1] += level.run_offset[c];
  std::vector<int> fill(level.run_offset.begin(), level.run_offset.end() - 1);
  level.cluster_runs.resize(runs);
  for (std::size_t i = 0; i < runs; ++i) {
    const int end = i + 1 < runs ? level.run_first[i + 1] : size_;
    level.cluster_runs[fill[level.run_cluster[i]]++] = {level.run_first[i],
                                                        end - level.run_first[i]};
  }
  level.ranks_before.resize(runs);
  for (int c = 0; c < clusters; ++c) {
    int before = 0;
    for (int i = level.run_offset[c]; i < level.run_offset[c + 1]; ++i) {
      level.ranks_before[i] = before;
      before += level.cluster_runs[i].count;
    }
  }
  contiguous_ = contiguous_ && runs == static_cast<std::size_t>(clusters);
}

// Parents and subclusters: a cluster's lowest rank names its parent.
void Levels::link_levels() {
  const int depth = this->depth();
  if (depth == 0) return;
  top_.resize(clusters(0));
  for (int c = 0; c < clusters(0); ++c) top_[c] = c;
  levels_[0].parent.assign(clusters(0), -1);
  for (int l = 1; l < depth; ++l) {
    Level& level = levels_[l];
    Level& above = levels_[l - 1];
    const int count = clusters(l);
    level.parent.resize(count);
    above.sub_offset.assign(clusters(l - 1) + 1, 0);
    for (int c = 0; c < count; ++c) {
      level.parent[c] = color(lowest_rank(l, c), l - 1);
      ++above.sub_offset[level.parent[c] + 1];
    }
    for (int c = 0; c < clusters(l - 1); ++c) above.sub_offset[c + 1] += above.sub_offset[c];
    std::vector<int> fill(above.sub_offset.begin(), above.sub_offset.end() - 1);
    above.subclusters.resize(count);
    for (int c = 0; c < count; ++c) above.subclusters[fill[level.parent[c]]++] = c;
  }
}

int Levels::depth() const noexcept {
  return static_cast<int>(levels_.size());
}

int Levels::size() const noexcept {
  return size_;
}

const Levels::Level& Levels::level_at(int level) const {
  if (level < 0 || level >= depth()) bad_argument("no level " + std::to_string(level));
  return levels_[level];
}

void Levels::check_cluster(int level, int cluster) const {
  if (cluster < 0 || cluster >= clusters(level))
    bad_argument("no cluster " + std::to_string(cluster) + " at level " + std::to_string(level));
}

const std::string& Levels::name(int level) const {
  level_at(level);
  return names_[level];
}

int Levels::clusters(int level) const {
  return static_cast<int>(level_at(level).run_offset.size()) - 1;
}

int Levels::color(int rank, int level) const {
  const Level& at = level_at(level);
  if (rank < 0 || rank >= size_) bad_argument("no rank " + std::to_string(rank));
  const auto run = std::upper_bound(at.run_first.begin(), at.run_first.end(), rank) - 1;
  return at.run_cluster[run - at.run_first.begin()];
}

std::span<const Run> Levels::runs(int level, int cluster) const {
  check_cluster(level, cluster);
  const Level& at = levels_[level];
  return std::span<const Run>(at.cluster_runs)
      .subspan(at.run_offset[cluster], at.run_offset[cluster + 1] - at.run_offset[cluster]);
}

int Levels::cluster_size(int level, int cluster) const {
  check_cluster(level, cluster);
  const Level& at = levels_[level];
  const int last = at.run_offset[cluster + 1] - 1;
  return at.ranks_before[last] + at.cluster_runs[last].count;
}

int Levels::lowest_rank(int level, int cluster) const {
  return runs(level, cluster).front().first;
}

int Levels::parent(int level, int cluster) const {
  check_cluster(level, cluster);
  return levels_[level].parent[cluster];
}

std::span<const int> Levels::subclusters(int level, int cluster) const {
  if (level + 1 >= depth()) bad_argument("no level below " + std::to_string(level));
  if (level < 0) return top_;
  check_cluster(level, cluster);
  const Level& at = levels_[level];
  return std::span<const int>(at.subclusters)
      .subspan(at.sub_offset[cluster], at.sub_offset[cluster + 1] - at.sub_offset[cluster]);
}

int Levels::index_in_cluster(int rank, int level) const {
  const int cluster = color(rank, level);
  const Level& at = levels_[level];
  const auto begin = at.cluster_runs.begin() + at.run_offset[cluster];
  const auto end = at.cluster_runs.begin() + at.run_offset[cluster + 1];
  const auto run =
      std::upper_bound(begin, end, rank,
                       [](int r, const Run& candidate) { return r < candidate.first; }) -
      1;
  return at.ranks_before[run - at.cluster_runs.begin()] + rank - run->first;
}

int Levels::member(int level, int cluster, int index) const {
  if (index < 0 || index >= cluster_size(level, cluster))
    bad_argument("no member " + std::to_string(index) + " in the cluster");
  const Level& at = levels_[level];
  const auto begin = at.ranks_before.begin() + at.run_offset[cluster];
  const auto end = at.ranks_before.begin() + at.run_offset[cluster + 1];
  const auto i = (std::upper_bound(begin, end, index) - 1) - at.ranks_before.begin();
  return at.cluster_runs[i].first + index - at.ranks_before[i];
}

bool Levels::contiguous() const noexcept {
  return contiguous_;
}

std::size_t Levels::bytes() const noexcept {
  std::size_t total = sizeof(Levels) + held(names_) + held(levels_) + held(top_);
  for (const std::string& name : names_) total += name.capacity() > 15 ? name.capacity() : 0;
  for (const Level& level : levels_)
    total += held(level.run_first) + held(level.run_cluster) + held(level.run_offset) +
             held(level.cluster_runs) + held(level.ranks_before) + held(level.parent) +
             held(level.sub_offset) + held(level.subclusters);
  return total;
}

}  // namespace scomm::topo
