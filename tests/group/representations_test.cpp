// Every set, permutation and list representation on edge cases, against plain vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "scomm/group/catalog.hpp"

namespace scomm::group {
namespace {

std::vector<std::vector<Rank>> edge_sets() {
  std::vector<std::vector<Rank>> sets{{0}, {5}, {0, 1}, {1, 1000000}, {0, 1, 2, 3, 4, 5, 6, 7}};
  std::vector<Rank> far_apart;  // gaps far beyond 64 << k exercise multi-word unary codes
  for (Rank w = 3; w < 2000000000 && far_apart.size() < 300; w += 1 + (w % 7) * 5000000)
    far_apart.push_back(w);
  sets.push_back(far_apart);
  std::vector<Rank> clustered;  // dense clusters separated by huge gaps
  for (Rank c = 0; c < 5; ++c)
    for (Rank k = 0; k < 300; ++k) clustered.push_back(c * 100000000 + k * (c + 1));
  sets.push_back(clustered);
  return sets;
}

TEST(RepresentationsTest, EverySetKindOnEdgeCases) {
  for (const auto& members : edge_sets()) {
    const Rank universe = members.back() + 1;
    for (const SetKind* kind : set_kinds()) {
      if (kind->name == "bitmap" && universe > 100000000) continue;  // 12 MB each: skip
      const SetPtr set = kind->build(members, universe);
      ASSERT_EQ(set->size(), static_cast<Rank>(members.size())) << kind->name;
      std::vector<Rank> decoded(members.size());
      set->decode(0, decoded);
      EXPECT_EQ(decoded, members) << kind->name;
      for (std::size_t i = 0; i < members.size(); ++i) {
        ASSERT_EQ(set->select(static_cast<Rank>(i)), members[i]) << kind->name;
        ASSERT_EQ(set->rank(members[i]), static_cast<Rank>(i)) << kind->name;
        if (!std::binary_search(members.begin(), members.end(), members[i] + 1)) {
          ASSERT_EQ(set->rank(members[i] + 1), kUndefined) << kind->name << " " << members[i] + 1;
        }
      }
      EXPECT_EQ(set->rank(-1), kUndefined) << kind->name;
      EXPECT_EQ(set->rank(universe), kUndefined) << kind->name;
    }
  }
}

TEST(RepresentationsTest, EveryPermutationKindOnEdgeCases) {
  std::mt19937 rng(3);
  std::vector<std::vector<Rank>> perms{{0}, {1, 0}, {2, 0, 1}};
  std::vector<Rank> long_cycle(1000);  // one cycle of length 1000: shortcuts matter
  for (Rank r = 0; r < 1000; ++r) long_cycle[static_cast<std::size_t>(r)] = (r + 1) % 1000;
  perms.push_back(long_cycle);
  std::vector<Rank> random(5000);
  std::iota(random.begin(), random.end(), 0);
  std::shuffle(random.begin(), random.end(), rng);
  perms.push_back(random);
  for (const auto& p : perms)
    for (const PermutationKind* kind : permutation_kinds()) {
      const PermutationPtr perm = kind->build(p);
      ASSERT_EQ(perm->size(), static_cast<Rank>(p.size()));
      for (std::size_t r = 0; r < p.size(); ++r) {
        ASSERT_EQ(perm->apply(static_cast<Rank>(r)), p[r]) << kind->name;
        ASSERT_EQ(perm->inverse(p[r]), static_cast<Rank>(r)) << kind->name;
      }
    }
}

TEST(RepresentationsTest, EveryListKindAcrossBlockBoundaries) {
  std::mt19937 rng(11);
  for (std::size_t n : {1u, 999u, 1000u, 1001u, 2500u}) {
    std::vector<Rank> values(n);
    for (auto& v : values) v = static_cast<Rank>(rng() % 1000000);
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::shuffle(values.begin(), values.end(), rng);
    for (const ListKind* kind : list_kinds()) {
      const MapPtr map = kind->build(values, 1000000);
      std::vector<Rank> decoded(values.size());
      map->decode(0, decoded);
      EXPECT_EQ(decoded, values) << kind->name;
      for (std::size_t r = 0; r < values.size(); r += 37) {
        ASSERT_EQ(map->select(static_cast<Rank>(r)), values[r]) << kind->name;
        ASSERT_EQ(map->rank_of(values[r]), static_cast<Rank>(r)) << kind->name;
      }
      EXPECT_EQ(map->rank_of(1000001), kUndefined) << kind->name;
      EXPECT_EQ(map->rank_of(-5), kUndefined) << kind->name;
    }
  }
}

}  // namespace
}  // namespace scomm::group
