// Differential tests of the permutation and list representations: every PermutationKind against
// a dense permutation, every ListKind against a std::vector, on shapes that stress each design
// (long cycles for the packed shortcuts, few or interleaved runs for WTR, block boundaries for
// zstd blocks).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "scomm/group/catalog.hpp"
#include "scomm/group/compressed_list.hpp"
#include "scomm/group/identity_permutation.hpp"
#include "scomm/group/permutation_stats.hpp"
#include "scomm/group/plain_list.hpp"
#include "scomm/group/set_stats.hpp"

namespace scomm::group {
namespace {

std::vector<Rank> iota_vector(Rank n) {
  std::vector<Rank> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// The catalog entry of that name; the tests reach the sdsl-based classes only through the catalog,
// which keeps libsdsl (linked privately to scomm_group) out of this binary.
template <typename Kind>
const Kind& kind_named(std::span<const Kind* const> kinds, std::string_view name) {
  const auto it =
      std::find_if(kinds.begin(), kinds.end(), [&](auto* k) { return k->name == name; });
  EXPECT_NE(it, kinds.end()) << name;
  return **it;
}

std::vector<Rank> shuffled(std::vector<Rank> v, unsigned seed) {
  std::mt19937 rng(seed);
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Permutations: set_index_of_rank[r] = set index of group rank r.

struct PermutationCase {
  std::string label;
  std::vector<Rank> set_index_of_rank;
};

void PrintTo(const PermutationCase& c, std::ostream* os) {
  *os << c.label;
}

std::vector<Rank> reversed(Rank n) {
  std::vector<Rank> v = iota_vector(n);
  std::reverse(v.begin(), v.end());
  return v;
}

// `count` ascending ranges of `length` set indices, visited in a shuffled order: count runs.
std::vector<Rank> ranges_in_shuffled_order(Rank count, Rank length) {
  std::vector<Rank> out;
  for (Rank k : shuffled(iota_vector(count), 5))
    for (Rank i = 0; i < length; ++i) out.push_back(k * length + i);
  return out;
}

// `count` consecutive ranges of `length`, each shuffled inside (thesis workloads 13-14).
std::vector<Rank> ranges_permuted_inside(Rank count, Rank length) {
  std::vector<Rank> out;
  for (Rank k = 0; k < count; ++k)
    for (Rank i : shuffled(iota_vector(length), static_cast<unsigned>(k)))
      out.push_back(k * length + i);
  return out;
}

// Group ranks [0, n/2) take the even set indices, [n/2, n) the odd ones: two runs whose set
// indices alternate, the worst layout of S for a run-length view and a fine one for WTR.
std::vector<Rank> two_interleaved_runs(Rank n) {
  std::vector<Rank> out;
  for (Rank j = 0; j < n; j += 2) out.push_back(j);
  for (Rank j = 1; j < n; j += 2) out.push_back(j);
  return out;
}

// One cycle of length n: r -> r + 1 mod n.
std::vector<Rank> one_cycle(Rank n) {
  std::vector<Rank> v(static_cast<std::size_t>(n));
  for (Rank r = 0; r < n; ++r) v[static_cast<std::size_t>(r)] = (r + 1) % n;
  return v;
}

// Disjoint cycles of the given lengths, each r -> next element of its cycle, placed at random.
std::vector<Rank> cycles_of_lengths(std::vector<Rank> lengths) {
  const Rank n = std::accumulate(lengths.begin(), lengths.end(), Rank{0});
  const std::vector<Rank> slots = shuffled(iota_vector(n), 17);
  std::vector<Rank> v(static_cast<std::size_t>(n));
  std::size_t first = 0;
  for (Rank length : lengths) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(length); ++i)
      v[static_cast<std::size_t>(slots[first + i])] =
          slots[first + (i + 1) % static_cast<std::size_t>(length)];
    first += static_cast<std::size_t>(length);
  }
  return v;
}

std::vector<PermutationCase> permutation_cases() {
  constexpr Rank t = 16;  // the packed permutation's shortcut step
  return {
      {"empty", {}},
      {"random_1", {0}},
      {"swap_2", {1, 0}},
      {"identity_2", {0, 1}},
      {"random_1000", shuffled(iota_vector(1000), 1)},
      {"random_100000", shuffled(iota_vector(100000), 2)},
      {"identity_1000", iota_vector(1000)},
      {"reversed_1000", reversed(1000)},
      {"reversed_1001", reversed(1001)},
      {"ten_ranges_in_shuffled_order", ranges_in_shuffled_order(10, 1000)},
      {"ten_ranges_permuted_inside", ranges_permuted_inside(10, 1000)},
      {"two_interleaved_runs", two_interleaved_runs(1001)},
      {"one_cycle_1000", one_cycle(1000)},
      {"cycles_around_the_shortcut_step",
       cycles_of_lengths({1, t - 1, t, t + 1, 2 * t - 1, 2 * t, 2 * t + 1, 3 * t, 5 * t + 3})},
  };
}

class PermutationKindTest : public ::testing::TestWithParam<PermutationCase> {};

void expect_matches(const Permutation& perm, const std::vector<Rank>& expected) {
  ASSERT_EQ(perm.size(), static_cast<Rank>(expected.size())) << perm.name();
  for (Rank r = 0; r < perm.size(); ++r) {
    const Rank j = expected[static_cast<std::size_t>(r)];
    ASSERT_EQ(perm.apply(r), j) << perm.name() << " apply(" << r << ")";
    ASSERT_EQ(perm.inverse(j), r) << perm.name() << " inverse(" << j << ")";
    ASSERT_EQ(perm.inverse(perm.apply(r)), r) << perm.name();
  }
}

TEST_P(PermutationKindTest, EveryKindMatchesTheDensePermutation) {
  const std::vector<Rank>& p = GetParam().set_index_of_rank;
  for (const PermutationKind* kind : permutation_kinds()) {
    const PermutationPtr perm = kind->build(p);
    EXPECT_EQ(perm->name(), kind->name);
    EXPECT_FALSE(perm->identity());
    expect_matches(*perm, p);
  }
}

// An estimate that is far off would make the strategy pick the wrong representation.
TEST_P(PermutationKindTest, EstimatesTrackRealSizes) {
  const std::vector<Rank>& p = GetParam().set_index_of_rank;
  if (p.size() < 1000) GTEST_SKIP() << "fixed overheads dominate";
  const PermutationStats stats = compute_permutation_stats(p);
  for (const PermutationKind* kind : permutation_kinds()) {
    const double ratio = static_cast<double>(kind->build(p)->bytes()) /
                         static_cast<double>(kind->estimate_bytes(stats));
    EXPECT_GT(ratio, 0.8) << kind->name;
    EXPECT_LT(ratio, 1.25) << kind->name;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, PermutationKindTest, ::testing::ValuesIn(permutation_cases()),
                         [](const auto& test) { return test.param.label; });

TEST(PermutationStatsTest, CountsMaximalAscendingRuns) {
  EXPECT_EQ(compute_permutation_stats({}).ascending_runs, 0);
  EXPECT_EQ(compute_permutation_stats(iota_vector(7)).ascending_runs, 1);
  EXPECT_EQ(compute_permutation_stats(reversed(7)).ascending_runs, 7);
  // Ranges visited from the last to the first never join: exactly one run each.
  std::vector<Rank> backwards_ranges;
  for (Rank k = 9; k >= 0; --k)
    for (Rank i = 0; i < 5; ++i) backwards_ranges.push_back(k * 5 + i);
  EXPECT_EQ(compute_permutation_stats(backwards_ranges).ascending_runs, 10);
  EXPECT_EQ(compute_permutation_stats(two_interleaved_runs(9)).ascending_runs, 2);
  EXPECT_EQ(compute_permutation_stats(std::vector<Rank>{2, 0, 1, 4, 3}).n, 5);
  EXPECT_EQ(compute_permutation_stats(std::vector<Rank>{2, 0, 1, 4, 3}).ascending_runs, 3);
}

TEST(IdentityPermutationTest, ConstantSizeAndIdentity) {
  const PermutationPtr small = make_identity_permutation(3);
  const PermutationPtr large = kIdentityPermutationKind.build(iota_vector(100000));
  EXPECT_TRUE(large->identity());
  EXPECT_EQ(large->name(), "identity");
  EXPECT_EQ(small->bytes(), large->bytes());
  EXPECT_EQ(large->bytes(), kIdentityPermutationKind.estimate_bytes({100000, 1}));
  expect_matches(*large, iota_vector(100000));
}

// The identity entry is only meant for ascending maps; anything else still gets a correct answer.
TEST(IdentityPermutationTest, NonIdentityInputFallsBackToPacked) {
  const std::vector<Rank> swap{1, 0, 2};
  const PermutationPtr perm = kIdentityPermutationKind.build(swap);
  EXPECT_EQ(perm->name(), "packed");
  expect_matches(*perm, swap);
}

// WTR is about n lg(rho) bits: with ten ranges (some adjacent, so fewer runs) it must be several
// times smaller than a packed array of 17-bit entries.
TEST(WtrPermutationTest, FewRunsAreFarSmallerThanPacked) {
  const std::vector<Rank> p = ranges_in_shuffled_order(10, 10000);
  const std::size_t wtr = kind_named(permutation_kinds(), "wtr").build(p)->bytes();
  const std::size_t packed = kind_named(permutation_kinds(), "packed").build(p)->bytes();
  EXPECT_LT(wtr * 4, packed) << wtr << " vs " << packed;
}

// ---------------------------------------------------------------------------------------------
// Lists: world_ranks[r] = world rank of group rank r.

struct ListCase {
  std::string label;
  std::vector<Rank> world_ranks;
  // The order has structure that SetStats cannot show (the estimates assume a random order).
  bool structured_order = false;
};

void PrintTo(const ListCase& c, std::ostream* os) {
  *os << c.label;
}

// n distinct random world ranks below `universe`, in random order.
std::vector<Rank> random_members(Rank universe, Rank n, unsigned seed) {
  std::vector<Rank> v = shuffled(iota_vector(universe), seed);
  v.resize(static_cast<std::size_t>(n));
  return v;
}

std::vector<Rank> sorted(std::vector<Rank> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<ListCase> list_cases() {
  return {
      {"empty", {}},
      {"one_member", {7}},
      {"world_rank_zero", {0}},
      {"random_sparse_5000_of_200000", random_members(200000, 5000, 3)},
      {"sorted_sparse_5000_of_200000", sorted(random_members(200000, 5000, 3))},
      {"dense_shuffled_3000", shuffled(iota_vector(3000), 4)},
      {"sorted_dense_2500", iota_vector(2500)},
      {"reversed_2000", reversed(2000), true},
      {"block_minus_one_999", random_members(5000, 999, 5)},
      {"one_block_1000", random_members(5000, 1000, 6)},
      {"block_plus_one_1001", random_members(5000, 1001, 7)},
      {"two_and_a_half_blocks_2500", random_members(1000000, 2500, 8)},
      {"huge_world_ranks", {std::numeric_limits<Rank>::max() - 1, 0, 1 << 30, 12345}},
  };
}

Rank universe_of(const std::vector<Rank>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end()) + 1;
}

// World ranks that are not members: everything near the members' range when it is small, a
// random sample plus the extremes otherwise.
std::vector<Rank> non_members(const std::vector<Rank>& members) {
  const std::vector<Rank> in = sorted(members);
  const Rank universe = universe_of(members);
  std::vector<Rank> candidates{
      -1,      -2, kUndefined, std::numeric_limits<Rank>::min(), std::numeric_limits<Rank>::max(),
      universe};
  std::mt19937 rng(9);
  for (int k = 0; k < 300 && universe > 0; ++k)
    candidates.push_back(static_cast<Rank>(rng() % static_cast<unsigned>(universe)));
  const Rank dense_end =
      static_cast<Rank>(std::min<std::int64_t>(std::int64_t{universe} + 3, 3000));
  for (Rank w = 0; w < dense_end; ++w) candidates.push_back(w);
  std::vector<Rank> out;
  for (Rank w : candidates)
    if (!std::binary_search(in.begin(), in.end(), w)) out.push_back(w);
  return out;
}

class ListKindTest : public ::testing::TestWithParam<ListCase> {};

void expect_select_and_rank_of(const RankMap& map, const std::vector<Rank>& expected) {
  ASSERT_EQ(map.size(), static_cast<Rank>(expected.size())) << map.name();
  EXPECT_EQ(map.ascending(), std::is_sorted(expected.begin(), expected.end())) << map.name();
  for (Rank r = 0; r < map.size(); ++r)
    ASSERT_EQ(map.select(r), expected[static_cast<std::size_t>(r)]) << map.name() << " " << r;
  // rank_of is a linear scan (compressed lists decompress every block), so sample the members.
  const std::size_t step = std::max<std::size_t>(1, expected.size() / 400);
  for (std::size_t r = 0; r < expected.size(); r += step)
    ASSERT_EQ(map.rank_of(expected[r]), static_cast<Rank>(r)) << map.name();
  if (!expected.empty()) {
    EXPECT_EQ(map.rank_of(expected.back()), static_cast<Rank>(expected.size() - 1));
  }
  for (Rank w : non_members(expected))
    ASSERT_EQ(map.rank_of(w), kUndefined) << map.name() << " non-member " << w;
}

void expect_decode(const RankMap& map, const std::vector<Rank>& expected) {
  const auto n = static_cast<Rank>(expected.size());
  std::vector<Rank> all(expected.size());
  map.decode(0, all);
  EXPECT_EQ(all, expected) << map.name();
  std::mt19937 rng(21);
  for (int trial = 0; trial < 50 && n > 0; ++trial) {
    const Rank first = static_cast<Rank>(rng() % static_cast<unsigned>(n));
    const Rank count = static_cast<Rank>(rng() % static_cast<unsigned>(n - first + 1));
    std::vector<Rank> part(static_cast<std::size_t>(count), -1);
    map.decode(first, part);
    ASSERT_TRUE(std::equal(part.begin(), part.end(), expected.begin() + first))
        << map.name() << " decode(" << first << ", " << count << ")";
  }
}

TEST_P(ListKindTest, EveryKindMatchesTheVector) {
  const std::vector<Rank>& values = GetParam().world_ranks;
  for (const ListKind* kind : list_kinds()) {
    const MapPtr map = kind->build(values, universe_of(values));
    EXPECT_EQ(map->name(), kind->name);
    expect_select_and_rank_of(*map, values);
    expect_decode(*map, values);
  }
}

TEST_P(ListKindTest, EstimatesTrackRealSizes) {
  const std::vector<Rank>& values = GetParam().world_ranks;
  if (values.size() < 1000) GTEST_SKIP() << "fixed overheads dominate";
  const SetStats stats = compute_set_stats(sorted(values));
  const bool ascending = std::is_sorted(values.begin(), values.end());
  for (const ListKind* kind : list_kinds()) {
    const double ratio = static_cast<double>(kind->build(values, stats.universe)->bytes()) /
                         static_cast<double>(kind->estimate_bytes(stats, ascending));
    if (!GetParam().structured_order) {
      EXPECT_GT(ratio, 0.67) << kind->name;
    }
    EXPECT_LT(ratio, 1.5) << kind->name;
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, ListKindTest, ::testing::ValuesIn(list_cases()),
                         [](const auto& test) { return test.param.label; });

TEST(PlainListTest, BytesAreTheArrayAndTheObject) {
  const PlainList list(iota_vector(1234));
  EXPECT_EQ(list.bytes(), sizeof(PlainList) + 1234 * sizeof(Rank));
}

// ceil(lg 200000) = 18 bits a member, in 64-bit words, beyond what an empty list takes.
TEST(PackedListTest, BytesAreCeilLgUniverseBitsAMember) {
  const ListKind& packed = kind_named(list_kinds(), "packed-array");
  const std::vector<Rank> values = random_members(200000, 5000, 3);
  const std::size_t empty = packed.build({}, 200000)->bytes();
  EXPECT_EQ(packed.build(values, 200000)->bytes() - empty, (5000 * 18 + 63) / 64 * 8);
}

TEST(PackedListTest, WidthCoversMembersBeyondAStaleUniverse) {
  const std::vector<Rank> values{5, 1000, 3};
  // The universe given is too small: the members still decide the width.
  const MapPtr list = kind_named(list_kinds(), "packed-array").build(values, 6);
  EXPECT_EQ(list->select(1), 1000);
  EXPECT_EQ(list->rank_of(1000), 1);
}

// The cache is part of the object from the start, so bytes() does not change with use.
TEST(CompressedListTest, BytesAreStable) {
  const std::vector<Rank> values = random_members(200000, 5000, 3);
  const CompressedList list(values);
  const std::size_t before = list.bytes();
  EXPECT_EQ(list.select(4321), values[4321]);
  EXPECT_EQ(list.select(12), values[12]);
  EXPECT_EQ(list.bytes(), before);
}

// Compressed payload beyond the object, the one-block cache and the five block offsets: sorted
// random gaps (mean 40, entropy 6.8 bits) take under 9 bits a member, a random order (17.6 bits of
// world rank) under 20.
std::size_t payload_bytes(const CompressedList& list) {
  return list.bytes() - sizeof(CompressedList) - 1000 * sizeof(Rank) - 6 * sizeof(std::uint32_t);
}

TEST(CompressedListTest, PayloadIsNearTheEntropy) {
  const std::vector<Rank> values = random_members(200000, 5000, 3);
  EXPECT_LT(payload_bytes(CompressedList(sorted(values))), 5000 * 9 / 8);
  EXPECT_LT(payload_bytes(CompressedList(values)), 5000 * 20 / 8);
}

// Two threads hammer different blocks through the shared one-block cache.
TEST(CompressedListTest, ConcurrentSelectsSeeCorrectValues) {
  const std::vector<Rank> values = random_members(1000000, 20000, 12);
  const CompressedList list(values);
  auto hammer = [&](unsigned seed, int* errors) {
    std::mt19937 rng(seed);
    for (int k = 0; k < 20000; ++k) {
      const auto r = static_cast<Rank>(rng() % values.size());
      if (list.select(r) != values[static_cast<std::size_t>(r)]) ++*errors;
    }
  };
  int errors_a = 0;
  int errors_b = 0;
  std::thread a(hammer, 1u, &errors_a);
  std::thread b(hammer, 2u, &errors_b);
  a.join();
  b.join();
  EXPECT_EQ(errors_a + errors_b, 0);
}

}  // namespace
}  // namespace scomm::group
