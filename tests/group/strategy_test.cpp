// The strategies: every candidate builds a correct map, estimates track real sizes, and each
// strategy picks what it promises among the candidates it ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "scomm/group/builder.hpp"
#include "scomm/group/choose_map.hpp"

namespace scomm::group {
namespace {

std::vector<Rank> random_members(Rank world, Rank n, bool sorted, unsigned seed) {
  std::vector<Rank> all(static_cast<std::size_t>(world));
  std::iota(all.begin(), all.end(), 0);
  std::mt19937 rng(seed);
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(static_cast<std::size_t>(n));
  if (sorted) std::sort(all.begin(), all.end());
  return all;
}

void expect_exact(const RankMap& map, const std::vector<Rank>& values) {
  ASSERT_EQ(map.size(), static_cast<Rank>(values.size())) << map.name();
  std::vector<Rank> decoded(values.size());
  map.decode(0, decoded);
  ASSERT_EQ(decoded, values) << map.name();
  for (std::size_t r = 0; r < values.size(); r += 7) {
    ASSERT_EQ(map.select(static_cast<Rank>(r)), values[r]) << map.name();
    ASSERT_EQ(map.rank_of(values[r]), static_cast<Rank>(r)) << map.name();
  }
}

struct Case {
  Rank world, n;
  bool sorted;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.n << (c.sorted ? " sorted" : " shuffled") << " of " << c.world;
}

class StrategyTest : public ::testing::TestWithParam<Case> {};

TEST_P(StrategyTest, EveryCandidateIsCorrectAndEstimatesTrackRealSizes) {
  const Case c = GetParam();
  const auto values = random_members(c.world, c.n, c.sorted, 99);
  for (const MapCandidate& candidate : rank_candidates(values, MapPolicy{})) {
    const MapPtr map = build_named_map(values, candidate.name);
    ASSERT_NE(map, nullptr) << candidate.name;
    EXPECT_EQ(map->name(), candidate.name);
    expect_exact(*map, values);
    const double ratio = static_cast<double>(map->bytes()) / static_cast<double>(candidate.bytes);
    EXPECT_GT(ratio, 0.5) << candidate.name;
    EXPECT_LT(ratio, 2.0) << candidate.name;
  }
}

TEST_P(StrategyTest, EachStrategyBuildsItsFirstCandidate) {
  const Case c = GetParam();
  const auto values = random_members(c.world, c.n, c.sorted, 7);
  for (MapStrategy s : {MapStrategy::kSpace, MapStrategy::kTime, MapStrategy::kHybrid}) {
    const MapPolicy policy{s, 0.25};
    const auto ranked = rank_candidates(values, policy);
    ASSERT_FALSE(ranked.empty());
    const MapPtr map = build_map(values, policy);
    EXPECT_EQ(map->name(), ranked.front().name);
    expect_exact(*map, values);
    for (const auto& other : ranked) {
      if (s == MapStrategy::kSpace) {
        EXPECT_LE(ranked.front().bytes, other.bytes);
      }
      if (s == MapStrategy::kTime) {
        EXPECT_LE(ranked.front().ns, other.ns);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, StrategyTest,
                         ::testing::Values(Case{200000, 5000, true}, Case{200000, 50000, true},
                                           Case{200000, 10000, false}, Case{1000, 999, false},
                                           Case{50, 3, true}));

TEST(StrategyTest, RegularInputNeverReachesTheStrategy) {
  std::vector<Rank> evens;
  for (Rank w = 0; w < 200000; w += 2) evens.push_back(w);
  for (MapStrategy s : {MapStrategy::kSpace, MapStrategy::kTime, MapStrategy::kHybrid})
    EXPECT_EQ(build_map(evens, MapPolicy{s, 0.25})->name(), "stride");
}

}  // namespace
}  // namespace scomm::group
