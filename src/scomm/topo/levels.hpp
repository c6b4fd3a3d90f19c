// A communicator's network levels (MPICH-G2's depths and colors, generalised): level 0 is the
// outermost and slowest (e.g. sites joined by a WAN), depth() - 1 the innermost (e.g. a NUMA
// domain inside a node). Each level partitions the ranks into clusters nested in those of the
// level above: two ranks in one cluster at level l share a cluster at every level < l. Pure C++
// (no MPI), so a topology of 10^6 ranks can be built and simulated in one process.
//
// Colors are cluster numbers 0..clusters(level) - 1, numbered in order of their lowest rank.
// Storage is by runs of consecutive ranks in one cluster: a regular topology (nodes of k
// consecutive ranks) costs O(clusters), not O(ranks).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace scomm::topo {

// Ranks first, first + 1, ..., first + count - 1.
struct Run {
  int first = 0;
  int count = 0;
};

class Levels {
 public:
  // No levels: a flat communicator.
  Levels() = default;
  // colors[l][r]: any integer naming rank r's cluster at level l (equal integers, equal
  // cluster); clusters are refined so that each level nests in the one above. names[l] names the
  // level ("site", "node", "numa", ...). Error(kArg) when the sizes disagree.
  static Levels from_colors(std::vector<std::string> names,
                            const std::vector<std::vector<std::int64_t>>& colors);
  // Regular levels: at level l, clusters of block_sizes[l] consecutive ranks among `size`
  // (each block size a multiple of the next, the last cluster possibly shorter).
  static Levels blocks(std::vector<std::string> names, const std::vector<int>& block_sizes,
                       int size);

  int depth() const noexcept;
  int size() const noexcept;
  const std::string& name(int level) const;
  int clusters(int level) const;
  // Rank's cluster at `level`; O(log runs).
  int color(int rank, int level) const;
  // The levels of a sub-communicator of `size` ranks whose rank r is rank parent_rank(r) here.
  Levels restrict(int size, const std::function<int(int)>& parent_rank) const;
  // Only the levels listed (increasing), the others left out: they still nest.
  Levels keep(const std::vector<int>& levels) const;
  // Bytes held, for the memory analyzer.
  std::size_t bytes() const noexcept;

  // The clusters, for the schedule builders (each O(1) or O(log runs)).
  // A cluster's ranks as runs, in rank order.
  std::span<const Run> runs(int level, int cluster) const;
  int cluster_size(int level, int cluster) const;
  int lowest_rank(int level, int cluster) const;
  // The cluster of level - 1 holding `cluster` (-1 at level 0).
  int parent(int level, int cluster) const;
  // The clusters of level + 1 inside `cluster` of `level`, in cluster order (= order of their
  // lowest ranks); level -1 stands for the whole communicator. Needs level + 1 < depth().
  std::span<const int> subclusters(int level, int cluster) const;
  // Position of `rank` among its cluster's ranks in rank order, and back.
  int index_in_cluster(int rank, int level) const;
  int member(int level, int cluster, int index) const;
  // Whether every cluster of every level is one run of consecutive ranks.
  bool contiguous() const noexcept;

 private:
  struct Level {
    std::vector<int> run_first;    // per run, increasing
    std::vector<int> run_cluster;  // per run
    // Per cluster: its runs (CSR by run_offset) with the ranks before each run in the cluster.
    std::vector<int> run_offset;
    std::vector<Run> cluster_runs;
    std::vector<int> ranks_before;
    std::vector<int> parent;      // per cluster: the cluster of the level above
    std::vector<int> sub_offset;  // per cluster: CSR of its subclusters one level down
    std::vector<int> subclusters;
  };

  // Clusters arrive in rank order, numbered in order of first appearance.
  static void append(Level& level, int first, int count, int cluster);
  static Levels assemble(std::vector<std::string> names, int size, std::vector<Level> levels);
  void index_clusters(Level& level, int clusters);
  void link_levels();
  const Level& level_at(int level) const;
  void check_cluster(int level, int cluster) const;

  std::vector<std::string> names_;
  std::vector<Level> levels_;
  std::vector<int> top_;  // the clusters of level 0: 0..clusters(0) - 1
  int size_ = 0;
  bool contiguous_ = true;
};

}  // namespace scomm::topo
