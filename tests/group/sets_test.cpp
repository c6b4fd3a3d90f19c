// Differential tests of the ordered-set representations: every SetKind against a dense model
// (a sorted std::vector searched with std::lower_bound) on random and structured sets, plus the
// one-pass statistics the estimates are computed from.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "scomm/group/bdd_set.hpp"
#include "scomm/group/catalog.hpp"
#include "scomm/group/rank_select_bits.hpp"
#include "scomm/group/set_stats.hpp"

namespace scomm::group {
namespace {

struct SetCase {
  std::string label;
  Rank world;  // every member is below it; rank is probed on [0, world + kBeyond)
  std::vector<Rank> members;
};

void PrintTo(const SetCase& c, std::ostream* os) {
  *os << c.label;
}

constexpr Rank kBeyond = 70;
// Worlds larger than this are probed near the members and at random points, not exhaustively.
constexpr Rank kExhaustiveWorld = 1 << 21;
// A bitmap holds a bit per world rank by design: not built for worlds beyond this.
constexpr Rank kLargestBitmapWorld = 1 << 26;

std::vector<Rank> range(Rank first, Rank last) {
  std::vector<Rank> v;
  for (Rank w = first; w < last; ++w) v.push_back(w);
  return v;
}

std::vector<Rank> multiples(Rank step, Rank world) {
  std::vector<Rank> v;
  for (Rank w = 0; w < world; w += step) v.push_back(w);
  return v;
}

// Each world rank is a member with probability `density`; `first_last` forces 0 and world - 1
// in (true) or out (false).
std::vector<Rank> random_members(Rank world, double density, bool first_last, unsigned seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution member(density);
  std::vector<Rank> v;
  for (Rank w = 0; w < world; ++w) {
    const bool edge = w == 0 || w == world - 1;
    if (edge ? first_last : member(rng)) v.push_back(w);
  }
  return v;
}

// Exactly n distinct members drawn uniformly from [0, world).
std::vector<Rank> random_sample(Rank world, Rank n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Rank> v;
  std::uniform_int_distribution<Rank> any(0, world - 1);
  while (static_cast<Rank>(v.size()) < n) {
    for (Rank k = static_cast<Rank>(v.size()); k < n; ++k) v.push_back(any(rng));
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  return v;
}

// Runs of random length 1..max_run separated by random gaps 1..max_gap.
std::vector<Rank> random_runs(Rank world, Rank max_run, Rank max_gap, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Rank> v;
  for (Rank w = static_cast<Rank>(rng() % 3); w < world;) {
    const Rank run = 1 + static_cast<Rank>(rng() % static_cast<unsigned>(max_run));
    for (Rank k = 0; k < run && w < world; ++k) v.push_back(w++);
    w += 1 + static_cast<Rank>(rng() % static_cast<unsigned>(max_gap));
  }
  return v;
}

std::vector<Rank> alternating_ranges(Rank length, Rank world) {
  std::vector<Rank> v;
  for (Rank w = 0; w < world; ++w)
    if ((w / length) % 2 == 0) v.push_back(w);
  return v;
}

std::vector<SetCase> set_cases() {
  constexpr Rank kMax = std::numeric_limits<Rank>::max();
  return {
      {"empty_world_0", 0, {}},
      {"empty_world_100", 100, {}},
      {"world_1_all", 1, {0}},
      {"world_1_none", 1, {}},
      {"first_of_10", 10, {0}},
      {"last_of_10", 10, {9}},
      {"middle_of_10", 10, {4}},
      {"two_ends_of_1000", 1000, {0, 999}},
      {"all_of_1000", 1000, range(0, 1000)},
      {"all_of_1024", 1024, range(0, 1024)},
      {"all_but_ends_of_1000", 1000, range(1, 999)},
      {"range_across_2_16", 140000, range(60000, 131073)},
      {"evens_200000", 200000, multiples(2, 200000)},
      {"odds_200000", 200000,
       [] {
         auto v = multiples(2, 199999);
         for (Rank& w : v) ++w;
         return v;
       }()},
      {"multiples_of_3_200000", 200000, multiples(3, 200000)},
      {"multiples_of_5_200000", 200000, multiples(5, 200000)},
      {"multiples_of_7_200000", 200000, multiples(7, 200000)},
      {"multiples_of_1000_1000003", 1000003, multiples(1000, 1000003)},
      {"random_5000_of_200000", 200000, random_sample(200000, 5000, 1)},
      {"random_50000_of_200000", 200000, random_sample(200000, 50000, 2)},
      {"random_sparse_ends_in", 100003, random_members(100003, 0.01, true, 3)},
      {"random_sparse_ends_out", 100003, random_members(100003, 0.01, false, 4)},
      {"random_dense_ends_in", 100003, random_members(100003, 0.7, true, 5)},
      {"random_dense_ends_out", 100003, random_members(100003, 0.97, false, 6)},
      {"random_half_of_65537", 65537, random_members(65537, 0.5, true, 7)},
      {"alternating_ranges_of_100", 200000, alternating_ranges(100, 200000)},
      {"random_runs", 300000, random_runs(300000, 300, 500, 8)},
      {"short_runs_long_gaps", 1000000, random_runs(1000000, 4, 20000, 9)},
      {"huge_world_ranks", kMax, {0, 1, 2, 65535, 65536, (1 << 30) + 5, kMax - 2, kMax - 1}},
      {"far_apart", kMax, random_sample(kMax, 300, 10)},
  };
}

using Param = std::tuple<const SetKind*, SetCase>;

class SetKindTest : public ::testing::TestWithParam<Param> {
 protected:
  const SetKind& kind() const { return *std::get<0>(GetParam()); }
  const SetCase& set_case() const { return std::get<1>(GetParam()); }

  // The set built as the strategy builds it (universe = largest member + 1), or null when this
  // kind does not cover this world.
  SetPtr build() const {
    const auto& c = set_case();
    if (kind().name == "bitmap" && c.world > kLargestBitmapWorld) return nullptr;
    return kind().build(c.members, compute_set_stats(c.members).universe);
  }
};

Rank model_rank(const std::vector<Rank>& members, Rank w) {
  const auto it = std::lower_bound(members.begin(), members.end(), w);
  return it != members.end() && *it == w ? static_cast<Rank>(it - members.begin()) : kUndefined;
}

// World ranks to ask rank() about: all of [0, world + kBeyond) for small worlds; otherwise each
// member's neighbourhood and random points. Negative ranks always.
std::vector<Rank> probes(const SetCase& c) {
  std::vector<Rank> p{-1, -2, -1000, kUndefined, std::numeric_limits<Rank>::min()};
  if (c.world <= kExhaustiveWorld) {
    for (Rank w = 0; w < c.world + kBeyond; ++w) p.push_back(w);
    return p;
  }
  constexpr Rank kMax = std::numeric_limits<Rank>::max();
  for (Rank m : c.members)
    for (Rank d = -3; d <= 3; ++d)
      if ((d < 0 && m >= -d) || (d >= 0 && m <= kMax - d)) p.push_back(m + d);
  std::mt19937 rng(11);
  for (int k = 0; k < 10000; ++k) p.push_back(static_cast<Rank>(rng() >> 1));
  return p;
}

TEST_P(SetKindTest, SelectMatchesTheModel) {
  const SetPtr set = build();
  if (!set) GTEST_SKIP() << "world too large for a bitmap";
  const auto& members = set_case().members;
  EXPECT_EQ(set->name(), kind().name);
  ASSERT_EQ(set->size(), static_cast<Rank>(members.size()));
  for (std::size_t i = 0; i < members.size(); ++i)
    ASSERT_EQ(set->select(static_cast<Rank>(i)), members[i]) << "select(" << i << ")";
}

TEST_P(SetKindTest, RankMatchesTheModel) {
  const SetPtr set = build();
  if (!set) GTEST_SKIP() << "world too large for a bitmap";
  for (Rank w : probes(set_case()))
    ASSERT_EQ(set->rank(w), model_rank(set_case().members, w)) << "rank(" << w << ")";
}

TEST_P(SetKindTest, DecodeOfSubRangesMatchesTheModel) {
  const SetPtr set = build();
  if (!set) GTEST_SKIP() << "world too large for a bitmap";
  const auto& members = set_case().members;
  const std::size_t n = members.size();
  std::vector<std::pair<std::size_t, std::size_t>> ranges{{0, n}, {0, 0}, {n, 0}};
  if (n > 0) ranges.insert(ranges.end(), {{n - 1, 1}, {0, 1}, {n / 2, n - n / 2}});
  std::mt19937 rng(12);
  for (int k = 0; k < 40 && n > 0; ++k) {
    const std::size_t first = rng() % n;
    const std::size_t length = rng() % std::min<std::size_t>(n - first + 1, k % 2 ? 100 : n);
    ranges.emplace_back(first, length);
  }
  for (auto [first, length] : ranges) {
    std::vector<Rank> out(length, -7);
    set->decode(static_cast<Rank>(first), out);
    const auto begin = members.begin() + static_cast<std::ptrdiff_t>(first);
    ASSERT_TRUE(
        std::equal(out.begin(), out.end(), begin, begin + static_cast<std::ptrdiff_t>(length)))
        << "decode(" << first << ", " << length << ")";
  }
}

// Sizes the strategy cannot see in SetStats: bit-level structure (residues, sub-cubes) shrinks a
// BDD by orders of magnitude, which only building it reveals. Its estimate is the random-set size.
bool estimate_blind_to_structure(const SetKind& kind, const std::string& label) {
  return kind.name == "bdd" && label.find("random") == std::string::npos;
}

// An estimate that is far off would make the strategy pick the wrong representation.
TEST_P(SetKindTest, EstimateIsWithinTwiceTheTrueSize) {
  const auto& c = set_case();
  if (c.members.size() < 1000) GTEST_SKIP() << "fixed overheads dominate";
  if (estimate_blind_to_structure(kind(), c.label)) GTEST_SKIP() << "structure the stats miss";
  const SetPtr set = build();
  if (!set) GTEST_SKIP() << "world too large for a bitmap";
  const double ratio = static_cast<double>(set->bytes()) /
                       static_cast<double>(kind().estimate_bytes(compute_set_stats(c.members)));
  EXPECT_GT(ratio, 0.5) << set->bytes() << " bytes";
  EXPECT_LT(ratio, 2.0) << set->bytes() << " bytes";
}

// bytes() is the true footprint: never below the object, and it grows with the content.
TEST_P(SetKindTest, BytesCoverTheObjectAndTheContent) {
  const SetPtr set = build();
  if (!set) GTEST_SKIP() << "world too large for a bitmap";
  EXPECT_GE(set->bytes(), sizeof(OrderedSet));
  EXPECT_GT(kind().estimate_ns(compute_set_stats(set_case().members)), 0.0);
}

std::vector<const SetKind*> kinds() {
  const auto all = set_kinds();
  return {all.begin(), all.end()};
}

INSTANTIATE_TEST_SUITE_P(Shapes, SetKindTest,
                         ::testing::Combine(::testing::ValuesIn(kinds()),
                                            ::testing::ValuesIn(set_cases())),
                         [](const auto& test) {
                           std::string kind(std::get<0>(test.param)->name);
                           std::replace(kind.begin(), kind.end(), '-', '_');
                           return kind + "_" + std::get<1>(test.param).label;
                         });

// A universe beyond the largest member (the world size, say) changes nothing but what rank()
// answers there: kUndefined.
TEST(SetKindUniverseTest, UniverseBeyondTheLargestMemberIsAllowed) {
  const std::vector<Rank> members{3, 4, 70, 1000};
  for (const SetKind* kind : set_kinds()) {
    const SetPtr set = kind->build(members, 5000);
    for (std::size_t i = 0; i < members.size(); ++i)
      EXPECT_EQ(set->select(static_cast<Rank>(i)), members[i]) << kind->name;
    for (Rank w : {1001, 4999, 5000, 1 << 20})
      EXPECT_EQ(set->rank(w), kUndefined) << kind->name << " rank(" << w << ")";
  }
}

TEST(SetStatsTest, EliasDeltaCodeLengths) {
  // x = 1: "1"; 2-3: "010x"; 4-7: "011xx"; 8-15: "00100xxx"; 16: 9 bits.
  const std::vector<std::pair<std::uint64_t, unsigned>> expected{
      {1, 1}, {2, 4}, {3, 4}, {4, 5}, {7, 5}, {8, 8}, {15, 8}, {16, 9}, {1u << 31, 42}};
  for (auto [x, bits] : expected) EXPECT_EQ(elias_delta_bits(x), bits) << x;
}

TEST(SetStatsTest, OnePassCountsGapsAndRuns) {
  const SetStats empty = compute_set_stats({});
  EXPECT_EQ(empty.n, 0);
  EXPECT_EQ(empty.universe, 0);
  EXPECT_EQ(empty.delta_bits, 0u);
  EXPECT_EQ(empty.runs, 0);

  const std::vector<Rank> zero{0};
  const SetStats only_zero = compute_set_stats(zero);
  EXPECT_EQ(only_zero.universe, 1);
  EXPECT_EQ(only_zero.delta_bits, 1u);  // first gap 0 - (-1) = 1
  EXPECT_EQ(only_zero.runs, 1);

  // Gaps 3 1 1 3 1 3 (first from -1); runs {2,3,4} {7,8} {11}.
  const std::vector<Rank> members{2, 3, 4, 7, 8, 11};
  const SetStats s = compute_set_stats(members);
  EXPECT_EQ(s.n, 6);
  EXPECT_EQ(s.universe, 12);
  EXPECT_EQ(s.delta_bits, 4u + 1 + 1 + 4 + 1 + 4);
  EXPECT_EQ(s.runs, 3);
}

// Reduced, shared nodes: a set with bit-level structure needs at most one node per fixed bit;
// free bits cost nothing.
TEST(BddSetTest, RegularSetsNeedAboutOneNodePerBit) {
  const std::vector<Rank> evens = multiples(2, 1 << 20);
  const SetPtr set = kBddSetKind.build(evens, 1 << 20);
  const auto& bdd = dynamic_cast<const BddSet&>(*set);
  EXPECT_EQ(bdd.node_count(), 2u + 1u);  // the terminals and "lowest bit 0"
  EXPECT_LT(bdd.bytes(), 128u);
  EXPECT_EQ(bdd.select(12345), 24690);
  EXPECT_EQ(bdd.rank(24690), 12345);
  EXPECT_EQ(bdd.rank(24691), kUndefined);

  // Column 77 of a 1024 x 1024 matrix: the low ten bits fixed, the high ten free.
  const std::vector<Rank> column = [] {
    std::vector<Rank> v;
    for (Rank row = 0; row < 1024; ++row) v.push_back(row * 1024 + 77);
    return v;
  }();
  const SetPtr column_set = kBddSetKind.build(column, 1 << 20);
  EXPECT_EQ(dynamic_cast<const BddSet&>(*column_set).node_count(), 2u + 10u);
  EXPECT_EQ(column_set->select(1000), 1000 * 1024 + 77);
  EXPECT_EQ(column_set->rank(1000 * 1024 + 77), 1000);
}

// BuDDy's state is process-global: builds from several threads must not interfere.
TEST(BddSetTest, ConcurrentBuildsAreIndependent) {
  std::vector<std::vector<Rank>> inputs;
  for (unsigned t = 0; t < 4; ++t) inputs.push_back(random_sample(100000, 2000, 20 + t));
  std::vector<SetPtr> built(inputs.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < inputs.size(); ++t)
    threads.emplace_back([&, t] { built[t] = kBddSetKind.build(inputs[t], 100000); });
  for (auto& thread : threads) thread.join();
  for (std::size_t t = 0; t < inputs.size(); ++t)
    for (std::size_t i = 0; i < inputs[t].size(); i += 13)
      ASSERT_EQ(built[t]->select(static_cast<Rank>(i)), inputs[t][i]);
}

// The bit vector under the bitmap and Elias-Fano sets, against a std::vector<bool>: sizes around
// word and block boundaries, densities from empty to full.
TEST(SetBitVectorTest, RankSelectBitsMatchesABoolVector) {
  std::mt19937 rng(30);
  for (std::uint64_t size : {0u, 1u, 63u, 64u, 65u, 511u, 512u, 513u, 5000u, 100000u}) {
    for (double density : {0.0, 0.001, 0.1, 0.5, 0.97, 1.0}) {
      std::bernoulli_distribution one(density);
      std::vector<bool> model(size);
      std::vector<std::uint64_t> words((size + 63) / 64, 0);
      for (std::uint64_t p = 0; p < size; ++p)
        if ((model[p] = one(rng))) words[p / 64] |= std::uint64_t{1} << (p % 64);
      const RankSelectBits bits(words, size, RankSelectBits::Select0::kYes);
      SCOPED_TRACE(::testing::Message() << "size " << size << " density " << density);
      ASSERT_EQ(bits.size(), size);
      std::uint64_t ones = 0, zeros = 0;
      for (std::uint64_t p = 0; p < size; ++p) {
        ASSERT_EQ(bits.test(p), model[p]) << p;
        ASSERT_EQ(bits.rank1(p), ones) << p;
        if (model[p]) {
          ASSERT_EQ(bits.select1(ones++), p);
        } else {
          ASSERT_EQ(bits.select0(zeros++), p);
        }
      }
      ASSERT_EQ(bits.ones(), ones);
      for (std::uint64_t p = 0; p <= size; p += 1 + rng() % 97) {
        std::uint64_t run = 0;
        while (p + run < size && model[p + run]) ++run;
        ASSERT_EQ(bits.ones_from(p), run) << p;
      }
      EXPECT_EQ(bits.heap_bytes(),
                RankSelectBits::estimate_heap_bytes(size, ones, RankSelectBits::Select0::kYes));
    }
  }
}

}  // namespace
}  // namespace scomm::group
