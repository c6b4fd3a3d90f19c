// Levels: clusters from colors and blocks, numbered by lowest rank and refined to nest; the run
// storage (O(runs) bytes), the cluster queries the schedule builders use, and restriction to
// sub-communicators, each checked against a direct per-rank computation.
#include "scomm/topo/levels.hpp"

#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <vector>

#include "scomm/base/error.hpp"

namespace scomm::topo {
namespace {

// Clusters numbered in order of lowest rank, refined by the level above: computed per rank.
std::vector<std::vector<int>> expected_clusters(
    const std::vector<std::vector<std::int64_t>>& colors) {
  std::vector<std::vector<int>> result;
  std::vector<int> above(colors.empty() ? 0 : colors[0].size(), 0);
  for (const auto& level : colors) {
    std::map<std::pair<int, std::int64_t>, int> numbers;
    for (std::size_t r = 0; r < level.size(); ++r) {
      const auto key = std::make_pair(above[r], level[r]);
      if (!numbers.count(key)) {
        const int next = static_cast<int>(numbers.size());
        numbers[key] = next;
      }
      above[r] = numbers[key];
    }
    result.push_back(above);
  }
  return result;
}

// Every query of `levels` against the per-rank clusters `expected`.
void check_queries(const Levels& levels, const std::vector<std::vector<int>>& expected) {
  ASSERT_EQ(levels.depth(), static_cast<int>(expected.size()));
  for (int l = 0; l < levels.depth(); ++l) {
    const std::vector<int>& colors = expected[l];
    ASSERT_EQ(levels.size(), static_cast<int>(colors.size()));
    std::map<int, std::vector<int>> members;
    for (int r = 0; r < levels.size(); ++r) {
      ASSERT_EQ(levels.color(r, l), colors[r]) << "rank " << r << " level " << l;
      members[colors[r]].push_back(r);
    }
    ASSERT_EQ(levels.clusters(l), static_cast<int>(members.size()));
    for (const auto& [cluster, ranks] : members) {
      EXPECT_EQ(levels.cluster_size(l, cluster), static_cast<int>(ranks.size()));
      EXPECT_EQ(levels.lowest_rank(l, cluster), ranks.front());
      std::vector<int> from_runs;
      for (const Run& run : levels.runs(l, cluster))
        for (int r = run.first; r < run.first + run.count; ++r) from_runs.push_back(r);
      EXPECT_EQ(from_runs, ranks);
      for (int i = 0; i < static_cast<int>(ranks.size()); ++i) {
        EXPECT_EQ(levels.member(l, cluster, i), ranks[i]);
        EXPECT_EQ(levels.index_in_cluster(ranks[i], l), i);
      }
      const int parent = l == 0 ? -1 : expected[l - 1][ranks.front()];
      EXPECT_EQ(levels.parent(l, cluster), parent);
      if (l > 0) {  // nesting: every member shares the parent cluster
        for (int r : ranks) EXPECT_EQ(expected[l - 1][r], parent);
      }
    }
    if (l + 1 < levels.depth()) {
      for (int cluster = 0; cluster < levels.clusters(l); ++cluster) {
        std::vector<int> subs;
        for (int c = 0; c < levels.clusters(l + 1); ++c)
          if (levels.parent(l + 1, c) == cluster) subs.push_back(c);
        const auto got = levels.subclusters(l, cluster);
        EXPECT_EQ(std::vector<int>(got.begin(), got.end()), subs);
      }
    }
  }
  if (levels.depth() > 1) {
    const auto top = levels.subclusters(-1, 0);
    EXPECT_EQ(static_cast<int>(top.size()), levels.clusters(0));
  }
}

TEST(Levels, FlatHasNoLevels) {
  const Levels flat;
  EXPECT_EQ(flat.depth(), 0);
  EXPECT_TRUE(flat.contiguous());
  EXPECT_THROW(flat.color(0, 0), Error);
}

TEST(Levels, FromColorsNumbersByLowestRankAndRefines) {
  // Level 1 repeats colors across level-0 clusters: they must become distinct clusters.
  const std::vector<std::vector<std::int64_t>> colors = {
      {7, 7, 7, 3, 3, 3, 7, 9},
      {1, 2, 1, 1, 2, 2, 1, 1},
  };
  const Levels levels = Levels::from_colors({"site", "node"}, colors);
  EXPECT_EQ(levels.name(0), "site");
  EXPECT_EQ(levels.name(1), "node");
  EXPECT_EQ(levels.clusters(0), 3);
  EXPECT_EQ(levels.clusters(1), 5);
  EXPECT_EQ(levels.color(6, 0), 0);
  EXPECT_EQ(levels.color(7, 0), 2);
  EXPECT_FALSE(levels.contiguous());
  check_queries(levels, expected_clusters(colors));
}

TEST(Levels, RoundRobinAndRandomColors) {
  for (int p : {1, 2, 5, 13, 40}) {
    std::vector<std::vector<std::int64_t>> colors(3, std::vector<std::int64_t>(p));
    unsigned seed = 12345u + p;
    for (int r = 0; r < p; ++r) {
      colors[0][r] = r % 3;
      colors[1][r] = r % 2;
      seed = seed * 1103515245u + 12345u;
      colors[2][r] = (seed >> 16) % 4;
    }
    check_queries(Levels::from_colors({"a", "b", "c"}, colors), expected_clusters(colors));
  }
}

TEST(Levels, BlocksMatchTheirColors) {
  for (int p : {0, 1, 7, 16, 48, 50}) {
    const Levels levels = Levels::blocks({"site", "machine", "socket"}, {32, 16, 4}, p);
    std::vector<std::vector<std::int64_t>> colors(3, std::vector<std::int64_t>(p));
    for (int r = 0; r < p; ++r) {
      colors[0][r] = r / 32;
      colors[1][r] = r / 16;
      colors[2][r] = r / 4;
    }
    EXPECT_TRUE(levels.contiguous());
    check_queries(levels, expected_clusters(colors));
  }
}

TEST(Levels, BadArgumentsAreErrors) {
  EXPECT_THROW(Levels::from_colors({"a"}, {{1, 2}, {1, 2}}), Error);
  EXPECT_THROW(Levels::from_colors({"a", "b"}, {{1, 2}, {1}}), Error);
  EXPECT_THROW(Levels::blocks({"a", "b"}, {6, 4}, 12), Error);
  EXPECT_THROW(Levels::blocks({"a"}, {0}, 12), Error);
  EXPECT_THROW(Levels::blocks({"a"}, {4}, -1), Error);
  const Levels levels = Levels::blocks({"a"}, {4}, 12);
  EXPECT_THROW(levels.color(12, 0), Error);
  EXPECT_THROW(levels.clusters(1), Error);
  EXPECT_THROW(levels.runs(0, 3), Error);
  EXPECT_THROW(levels.member(0, 0, 4), Error);
  EXPECT_THROW(levels.restrict(2, [](int r) { return r * 12; }), Error);
  try {
    levels.color(-1, 0);
  } catch (const Error& error) {
    EXPECT_EQ(error.error_class(), ErrorClass::kArg);
  }
}

TEST(Levels, RestrictKeepsTheParentsClusters) {
  const std::vector<std::vector<std::int64_t>> colors = {
      {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2},
      {0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2},
  };
  const Levels parent = Levels::from_colors({"site", "node"}, colors);
  // Reversed odd ranks, then every third rank: sub rank r is parent rank map(r).
  const std::vector<std::vector<int>> maps = {
      {17, 15, 13, 11, 9, 7, 5, 3, 1}, {0, 3, 6, 9, 12, 15}, {4}, {}};
  for (const auto& map : maps) {
    const int size = static_cast<int>(map.size());
    const Levels sub = parent.restrict(size, [&](int r) { return map[r]; });
    std::vector<std::vector<std::int64_t>> sub_colors(2, std::vector<std::int64_t>(size));
    for (int l = 0; l < 2; ++l)
      for (int r = 0; r < size; ++r) sub_colors[l][r] = parent.color(map[r], l);
    check_queries(sub, expected_clusters(sub_colors));
    EXPECT_EQ(sub.name(1), "node");
  }
}

TEST(Levels, RegularLevelsCostOnlyTheirRuns) {
  const Levels small = Levels::blocks({"site", "node", "socket"}, {1 << 16, 64, 16}, 1 << 18);
  const Levels large = Levels::blocks({"site", "node", "socket"}, {1 << 18, 256, 64}, 1 << 20);
  // The same clusters per level (4 sites, 4096 nodes, 16384 sockets) on 4x the ranks.
  EXPECT_EQ(small.clusters(2), large.clusters(2));
  EXPECT_EQ(small.bytes(), large.bytes());
  EXPECT_LT(large.bytes(), std::size_t{64} * (4 + 4096 + 16384) + 1024);
  EXPECT_EQ(large.color((1 << 20) - 1, 2), 16383);
  EXPECT_EQ(large.index_in_cluster(1000, 1), 1000 % 256);
  // A contiguous sub-communicator of a regular topology keeps O(clusters) runs as well.
  const Levels half = large.restrict(1 << 19, [](int r) { return r + (1 << 19); });
  EXPECT_EQ(half.clusters(0), 2);
  EXPECT_EQ(half.clusters(2), 8192);
  EXPECT_LT(half.bytes(), large.bytes());
}

}  // namespace
}  // namespace scomm::topo
