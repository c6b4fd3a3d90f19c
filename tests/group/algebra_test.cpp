// Group algebra against a dense reference model (plain vectors with MPI's ordering rules), on
// random and regular groups; plus the compact forms the results must keep.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "scomm/base/error.hpp"
#include "scomm/group/group.hpp"

namespace scomm::group {
namespace {

using Members = std::vector<Rank>;

Members members_of(const Group& g) {
  Members m(static_cast<std::size_t>(g.size()));
  g.map().decode(0, m);
  return m;
}

bool contains(const Members& m, Rank w) {
  return std::find(m.begin(), m.end(), w) != m.end();
}

Members model_union(const Members& a, const Members& b) {
  Members out = a;
  for (Rank w : b)
    if (!contains(a, w)) out.push_back(w);
  return out;
}
Members model_filter(const Members& a, const Members& b, bool keep_common) {
  Members out;
  for (Rank w : a)
    if (contains(b, w) == keep_common) out.push_back(w);
  return out;
}

void expect_group(const Group& g, const Members& expected) {
  ASSERT_EQ(members_of(g), expected) << g.representation();
  for (std::size_t r = 0; r < expected.size(); ++r)
    ASSERT_EQ(g.map().rank_of(expected[r]), static_cast<Rank>(r)) << g.representation();
}

// A random group of the world: a random subset in random or sorted order.
Group random_group(const Group& world, std::mt19937& rng, Members& model) {
  std::vector<int> ranks(static_cast<std::size_t>(world.size()));
  std::iota(ranks.begin(), ranks.end(), 0);
  std::shuffle(ranks.begin(), ranks.end(), rng);
  ranks.resize(rng() % (ranks.size() + 1));
  if (rng() % 2) std::sort(ranks.begin(), ranks.end());
  model.assign(ranks.begin(), ranks.end());
  return incl(world, ranks);
}

TEST(AlgebraTest, RandomGroupsMatchTheModel) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 200; ++trial) {
    const Group world = Group::world(static_cast<Rank>(1 + rng() % 300));
    Members ma, mb;
    const Group a = random_group(world, rng, ma);
    const Group b = random_group(world, rng, mb);
    expect_group(a, ma);
    expect_group(set_union(a, b), model_union(ma, mb));
    expect_group(intersection(a, b), model_filter(ma, mb, true));
    expect_group(difference(a, b), model_filter(ma, mb, false));
    std::vector<int> from(ma.size()), to(ma.size());
    std::iota(from.begin(), from.end(), 0);
    translate_ranks(a, from, b, to, -1);
    for (std::size_t i = 0; i < ma.size(); ++i) {
      const auto it = std::find(mb.begin(), mb.end(), ma[i]);
      ASSERT_EQ(to[i], it == mb.end() ? kUndefined : static_cast<int>(it - mb.begin()));
    }
  }
}

TEST(AlgebraTest, InclExclAndRangesMatchTheModel) {
  std::mt19937 rng(777);
  for (int trial = 0; trial < 200; ++trial) {
    const Rank n = static_cast<Rank>(1 + rng() % 200);
    Members mparent;
    const Group parent = random_group(Group::world(n + 50), rng, mparent);
    if (parent.size() == 0) continue;
    const Rank size = parent.size();
    const int first = static_cast<int>(rng() % size);
    const int last = static_cast<int>(rng() % size);
    const int stride = (last >= first ? 1 : -1) * static_cast<int>(1 + rng() % 4);
    // `last` bounds the range: it may lie up to |stride| - 1 past the last rank computed, even
    // outside the group (MPI's rule).
    const int overshoot = static_cast<int>(rng() % static_cast<unsigned>(std::abs(stride)));
    const RangeTriplet range{
        first, first + (last - first) / stride * stride + (stride > 0 ? overshoot : -overshoot),
        stride};
    Members expected_incl, expected_excl;
    std::vector<int> in_range;
    for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) in_range.push_back(r);
    for (int r : in_range) expected_incl.push_back(mparent[static_cast<std::size_t>(r)]);
    for (Rank r = 0; r < size; ++r)
      if (!contains(Members(in_range.begin(), in_range.end()), r))
        expected_excl.push_back(mparent[static_cast<std::size_t>(r)]);
    expect_group(range_incl(parent, std::span(&range, 1)), expected_incl);
    expect_group(range_excl(parent, std::span(&range, 1)), expected_excl);
    expect_group(incl(parent, in_range), expected_incl);
    expect_group(excl(parent, in_range), expected_excl);
  }
}

TEST(AlgebraTest, RegularResultsStayCompact) {
  const Group world = Group::world(1000000);
  std::vector<int> odd_ranks;
  for (int r = 1; r < 1000000; r += 2) odd_ranks.push_back(r);
  const Group evens = excl(world, odd_ranks);
  EXPECT_EQ(evens.representation(), "stride");
  EXPECT_LE(evens.bytes(), 64u);
  // generations of odd/even splits stay strides (AV-Rankmap Table II, no lookup table)
  Group g = world;
  for (int generation = 0; generation < 4; ++generation) {
    const RangeTriplet odds{1, g.size() - 1, 2};
    g = range_incl(g, std::span(&odds, 1));
    EXPECT_EQ(g.representation(), "stride");
  }
  EXPECT_EQ(g.map().select(1), 31);  // offset 15, stride 16
  const RangeTriplet first_half{0, 499999, 1};
  EXPECT_EQ(intersection(evens, range_incl(world, std::span(&first_half, 1))).representation(),
            "stride");
  EXPECT_EQ(set_union(evens, difference(world, evens)).size(), 1000000);
}

// One range of a world of 2^30 is its progression at once: no list of its 2^29 ranks is made on
// the way (which took seconds and 2 GiB), reversed ones included.
TEST(AlgebraTest, OneRangeOfAHugeWorldListsNoRank) {
  const Group world = Group::world(1 << 30);
  for (const RangeTriplet range : {RangeTriplet{0, (1 << 30) - 1, 2}, {(1 << 30) - 1, 0, -3}}) {
    const Group g = range_incl(world, std::span(&range, 1));
    EXPECT_EQ(g.representation(), "stride");
    EXPECT_LE(g.bytes(), 64u);
    EXPECT_EQ(g.map().select(1), range[0] + range[2]);
  }
}

TEST(AlgebraTest, CompareFollowsMpi) {
  const Group world = Group::world(10);
  const std::vector<int> forward{1, 2, 3}, backward{3, 2, 1}, other{1, 2, 4};
  EXPECT_EQ(compare(incl(world, forward), incl(world, forward)), Comparison::kIdent);
  EXPECT_EQ(compare(incl(world, forward), incl(world, backward)), Comparison::kSimilar);
  EXPECT_EQ(compare(incl(world, forward), incl(world, other)), Comparison::kUnequal);
  EXPECT_EQ(compare(world, Group::world(11)), Comparison::kUnequal);
  EXPECT_EQ(compare(Group(), Group()), Comparison::kIdent);
}

TEST(AlgebraTest, SelfRankFollowsTheCaller) {
  const Group world = Group::world(8, 5);
  EXPECT_EQ(world.rank(), 5);
  const std::vector<int> ranks{7, 5, 1};
  EXPECT_EQ(incl(world, ranks).rank(), 1);
  EXPECT_EQ(excl(world, ranks).rank(), kUndefined);
  // A group that knows no caller (a virtual world) as either operand of a set operation: the
  // caller's rank comes from the other, whichever comes first.
  const Group virtual_world = Group::world(8);
  const Group odds = incl(world, std::vector<int>{1, 3, 5, 7});
  EXPECT_EQ(intersection(virtual_world, world).rank(), 5);
  EXPECT_EQ(intersection(world, virtual_world).rank(), 5);
  EXPECT_EQ(intersection(virtual_world, odds).rank(), 2);
  EXPECT_EQ(set_union(virtual_world, world).rank(), 5);
  EXPECT_EQ(difference(virtual_world, incl(world, std::vector<int>{0})).rank(), 4);
}

template <typename F>
void expect_error(ErrorClass expected, F&& f) {
  try {
    f();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.error_class(), expected) << e.what();
    EXPECT_GT(std::string(e.what()).size(), 10u);
  }
}

TEST(AlgebraTest, BadInputIsAnError) {
  const Group world = Group::world(10);
  const std::vector<int> out_of_range{1, 10}, negative{-1}, duplicate{3, 4, 3};
  expect_error(ErrorClass::kRank, [&] { incl(world, out_of_range); });
  expect_error(ErrorClass::kRank, [&] { incl(world, negative); });
  expect_error(ErrorClass::kRank, [&] { incl(world, duplicate); });
  expect_error(ErrorClass::kRank, [&] { excl(world, duplicate); });
  const RangeTriplet zero_stride{0, 5, 0}, past_end{0, 10, 1}, runaway{5, 2, 1},
      computed_past_end{1, 13, 4};
  const RangeTriplet overlapping[2] = {{0, 4, 1}, {4, 6, 1}};
  expect_error(ErrorClass::kArg, [&] { range_incl(world, std::span(&zero_stride, 1)); });
  expect_error(ErrorClass::kRank, [&] { range_incl(world, std::span(&past_end, 1)); });
  expect_error(ErrorClass::kRank, [&] { range_incl(world, std::span(&computed_past_end, 1)); });
  expect_error(ErrorClass::kArg, [&] { range_excl(world, std::span(&runaway, 1)); });
  expect_error(ErrorClass::kRank, [&] { range_incl(world, overlapping); });
  expect_error(ErrorClass::kArg, [&] { Group::world(-1); });
  std::vector<int> out(1);
  expect_error(ErrorClass::kRank, [&] { translate_ranks(world, out_of_range, world, out, -1); });
}

}  // namespace
}  // namespace scomm::group

namespace scomm::group {
namespace {

// Intersections of progressions are computed in O(1); check them against the streamed model on
// random progressions, ascending and descending, including empty and single-member ones.
TEST(AlgebraTest, ProgressionIntersectionsMatchTheModel) {
  std::mt19937 rng(31);
  const Group world = Group::world(3000);
  auto random_progression = [&](Members& model) {
    const int first = static_cast<int>(rng() % 3000);
    const int stride = (rng() % 2 ? 1 : -1) * static_cast<int>(1 + rng() % 40);
    const int last = std::clamp(first + stride * static_cast<int>(rng() % 200), 0, 2999);
    const RangeTriplet t{first, last, (last - first) * stride < 0 ? -stride : stride};
    model.clear();
    for (int r = t[0]; t[2] > 0 ? r <= t[1] : r >= t[1]; r += t[2]) model.push_back(r);
    return range_incl(world, std::span(&t, 1));
  };
  for (int trial = 0; trial < 2000; ++trial) {
    Members ma, mb;
    const Group a = random_progression(ma), b = random_progression(mb);
    const Group common = intersection(a, b);
    expect_group(common, model_filter(ma, mb, true));
    EXPECT_LE(common.bytes(), 64u);
  }
}

}  // namespace
}  // namespace scomm::group
