// Regular patterns: detection, the constant-size maps, composition, ranges and views, each
// checked against the plain list of values it stands for.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#include "scomm/group/affine_view.hpp"
#include "scomm/group/detect.hpp"
#include "scomm/group/ranges_map.hpp"
#include "scomm/group/regular_map.hpp"

namespace scomm::group {
namespace {

std::vector<Rank> box_values(std::int64_t base, std::vector<BoxDim> dims) {
  std::vector<Rank> values{static_cast<Rank>(base)};
  for (const BoxDim& d : dims) {
    std::vector<Rank> next;
    for (Rank k = 0; k < d.count; ++k)
      for (Rank v : values) next.push_back(static_cast<Rank>(v + k * d.stride));
    values = next;
  }
  return values;
}

// Checks select, rank_of (members and non-members around them) and decode against `values`.
void expect_map_matches(const RankMap& map, const std::vector<Rank>& values) {
  ASSERT_EQ(map.size(), static_cast<Rank>(values.size()));
  Rank max_value = 0;
  for (std::size_t r = 0; r < values.size(); ++r) {
    ASSERT_EQ(map.select(static_cast<Rank>(r)), values[r]) << map.name() << " r=" << r;
    max_value = std::max(max_value, values[r]);
  }
  std::vector<Rank> inverse(static_cast<std::size_t>(max_value) + 3, kUndefined);
  for (std::size_t r = 0; r < values.size(); ++r) inverse[values[r]] = static_cast<Rank>(r);
  for (Rank w = 0; w < static_cast<Rank>(inverse.size()); ++w)
    ASSERT_EQ(map.rank_of(w), inverse[w]) << map.name() << " w=" << w;
  EXPECT_EQ(map.rank_of(-1), kUndefined);
  EXPECT_EQ(map.rank_of(kUndefined), kUndefined);
  for (Rank first : {0, 1, static_cast<Rank>(values.size() / 2)}) {
    if (first >= static_cast<Rank>(values.size())) continue;
    std::vector<Rank> out(values.size() - static_cast<std::size_t>(first));
    map.decode(first, out);
    EXPECT_TRUE(std::equal(out.begin(), out.end(), values.begin() + first)) << map.name();
  }
}

struct Pattern {
  const char* kind;
  std::int64_t base;
  std::vector<BoxDim> dims;
};

void PrintTo(const Pattern& p, std::ostream* os) {
  *os << p.kind << " from " << p.base;
}

class RegularPatternTest : public ::testing::TestWithParam<Pattern> {};

TEST_P(RegularPatternTest, DetectsBuildsAndLooksUp) {
  const Pattern& p = GetParam();
  const auto values = box_values(p.base, p.dims);
  const auto box = detect_box(values);
  ASSERT_TRUE(box.has_value());
  EXPECT_EQ(box_kind_name(box->kind()), p.kind);
  const MapPtr map = make_regular_map(*box);
  EXPECT_EQ(map->name(), p.kind);
  EXPECT_LE(map->bytes(), 64u);
  EXPECT_EQ(map->ascending(), std::is_sorted(values.begin(), values.end()));
  expect_map_matches(*map, values);
}

INSTANTIATE_TEST_SUITE_P(
    Patterns, RegularPatternTest,
    ::testing::Values(Pattern{"empty", 0, {{0, 1}}}, Pattern{"direct", 0, {{1000, 1}}},
                      Pattern{"offset", 17, {{1, 1}}}, Pattern{"offset", 5, {{300, 1}}},
                      Pattern{"stride", 1, {{500, 2}}}, Pattern{"stride", 11453, {{100, 81}}},
                      Pattern{"stride", 999, {{1000, -1}}}, Pattern{"stride", 998, {{500, -2}}},
                      Pattern{"stride-block", 3, {{4, 1}, {25, 10}}},
                      Pattern{"box", 0, {{4, 2}, {5, 100}}},
                      Pattern{"box", 0, {{3, 3}, {2, 1}}},  // interleaved: 0 3 6 1 4 7
                      Pattern{"box", 10, {{32, 1}, {32, 64}, {2, 4096}}},
                      Pattern{"box", 0, {{8, 128}, {16, 1}}},  // matrix transpose-like
                      Pattern{"box", 7 * 64 * 64, {{4, -64}, {3, 1}}}));

TEST(DetectTest, RejectsIrregularAndPartialBlocks) {
  EXPECT_FALSE(detect_box(std::vector<Rank>{0, 1, 2, 4}).has_value());
  EXPECT_FALSE(detect_box(std::vector<Rank>{0, 1, 10, 11, 20}).has_value());  // partial block
  EXPECT_FALSE(detect_box(std::vector<Rank>{3, 1, 4, 1, 5}).has_value());     // duplicate
  EXPECT_FALSE(
      detect_box(std::vector<Rank>{0, 5, 3, 8, 6, 11}).has_value());  // not greedy-invertible
}

TEST(BoxTest, ComposesAffineParentsWithAnyChild) {
  const Box parent = Box::progression(3, 1000, 4);  // 3, 7, 11, ...
  const BoxDim child_dims[2] = {{5, 1}, {10, 20}};  // stride-block over parent ranks
  const auto child = Box::make(2, child_dims, 2);
  ASSERT_TRUE(child.has_value());
  const auto composed = parent.compose(*child);
  ASSERT_TRUE(composed.has_value());
  EXPECT_EQ(composed->kind(),
            BoxKind::kBox);  // stride-of-stride-block: regular, not a lookup table
  for (Rank r = 0; r < child->size(); ++r)
    EXPECT_EQ(composed->value(r), parent.value(child->value(r)));
  const auto twice = parent.compose(Box::progression(1, 100, 3));
  ASSERT_TRUE(twice.has_value());
  EXPECT_EQ(twice->kind(), BoxKind::kStride);  // stride-of-stride
  EXPECT_EQ(twice->value(2), parent.value(7));
}

TEST(BoxTest, RejectsValuesOutsideTheWorld) {
  EXPECT_FALSE(Box::make(-1, std::vector<BoxDim>{{2, 1}}.data(), 1).has_value());
  EXPECT_FALSE(Box::make(0, std::vector<BoxDim>{{3, 1 << 30}}.data(), 1).has_value());
  EXPECT_FALSE(Box::make(0, std::vector<BoxDim>{{2, 0}}.data(), 1).has_value());
}

TEST(RangesMapTest, MatchesValuesOfAlternatingRanges) {
  std::vector<Rank> values;
  for (Rank start = 0; start < 5000; start += 200)
    for (Rank k = 0; k < 100; ++k) values.push_back(start + k);
  std::reverse(values.begin() + 1000, values.begin() + 1500);  // a descending run too
  const MapPtr map = RangesMap::make(RangesMap::split_runs(values));
  ASSERT_NE(map, nullptr);
  EXPECT_EQ(RangesMap::count_runs(values), 25);
  expect_map_matches(*map, values);
}

TEST(RangesMapTest, DeclinesInterleavedRuns) {
  const std::vector<Rank> values{0, 2, 4, 6, 1, 3, 5, 7};
  EXPECT_EQ(RangesMap::make(RangesMap::split_runs(values)), nullptr);
}

TEST(AffineViewTest, SharesTheParentAndFoldsNestedViews) {
  std::vector<Rank> parent_values{9, 4, 17, 3, 12, 0, 8, 30, 21, 6};
  const MapPtr parent = RangesMap::make({{9, 1, 1},
                                         {4, 1, 1},
                                         {17, 1, 1},
                                         {3, 1, 1},
                                         {12, 1, 1},
                                         {0, 1, 1},
                                         {8, 1, 1},
                                         {30, 1, 1},
                                         {21, 1, 1},
                                         {6, 1, 1}});
  ASSERT_NE(parent, nullptr);
  const MapPtr view = AffineView::make(parent, 8, -2, 5);  // parent ranks 8, 6, 4, 2, 0
  expect_map_matches(*view, {21, 8, 12, 17, 9});
  const MapPtr nested = AffineView::make(view, 1, 2, 2);  // view ranks 1, 3 = parent 6, 2
  expect_map_matches(*nested, {8, 17});
  EXPECT_EQ(nested->name(), "view:ranges");
  EXPECT_EQ(nested->shared_bytes(), parent->bytes());
}

// progression() builds the canonical box directly; it must equal make_wide()'s, edge cases too.
TEST(BoxProgressionTest, EqualsTheGenericConstruction) {
  const std::int64_t max = std::numeric_limits<Rank>::max();
  const std::int64_t cases[][3] = {
      {0, 1, 0},   {5, 1, 7}, {0, 10, 1}, {9, 10, -1}, {3, 5, 100}, {max, 1, 1}, {max, 2, -1},
      {max, 2, 1}, {0, 2, 0}, {4, 3, -3}, {0, 0, 1},   {-1, 1, 1},  {1, 3, max}, {100, 7, -17}};
  for (const auto& c : cases) {
    const std::int64_t count = c[1];
    const auto generic = Box::make_wide(c[0], &count, &c[2], 1);
    EXPECT_EQ(Box::progression(c[0], static_cast<Rank>(c[1]), c[2]), generic ? *generic : Box())
        << c[0] << " " << c[1] << " " << c[2];
  }
}

// Progressions of progressions compose directly; the result must be the box of the composed
// values, and equal to the generic construction of those values.
TEST(BoxProgressionTest, ComposeOfProgressionsMatchesTheValues) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const Rank n = static_cast<Rank>(random() % 50 + 1), m = static_cast<Rank>(random() % n + 1);
    const std::int64_t stride = static_cast<std::int64_t>(random() % 9) - 4;
    const std::int64_t parent_base = stride < 0 ? 10000 : static_cast<std::int64_t>(random() % 100);
    const Box parent = Box::progression(parent_base, n, stride == 0 ? 1 : stride);
    const std::int64_t child_stride = static_cast<std::int64_t>(random() % 3) + 1;
    const Rank count = std::max<Rank>(1, static_cast<Rank>((n - 1) / child_stride + 1) - 1);
    const bool reversed = random() % 2 == 0;
    const Box child = reversed ? Box::progression((count - 1) * child_stride, count, -child_stride)
                               : Box::progression(0, count, child_stride);
    (void)m;
    const auto composed = parent.compose(child);
    ASSERT_TRUE(composed.has_value());
    std::vector<Rank> values;
    for (Rank r = 0; r < child.size(); ++r) values.push_back(parent.value(child.value(r)));
    const auto detected = detect_box(values);
    ASSERT_TRUE(detected.has_value());
    EXPECT_EQ(*composed, *detected);
    for (Rank r = 0; r < child.size(); ++r) EXPECT_EQ(composed->index_of(values[r]), r);
  }
}

}  // namespace
}  // namespace scomm::group
