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
#include <string>
#include <vector>

namespace scomm::topo {

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
  // Bytes held, for the memory analyzer.
  std::size_t bytes() const noexcept;
};

}  // namespace scomm::topo
