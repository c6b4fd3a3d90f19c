// The catalog entry of a representation: how to estimate its size and lookup time from statistics
// gathered in one pass, and how to build it. The strategy (strategy.hpp) ranks candidates by these
// estimates and builds only the winner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "scomm/group/ordered_set.hpp"
#include "scomm/group/permutation.hpp"
#include "scomm/group/rank_map.hpp"

namespace scomm::group {

// Facts about a sorted set of world ranks.
struct SetStats {
  Rank n = 0;
  Rank universe = 0;             // largest member + 1 (0 for the empty set)
  std::uint64_t delta_bits = 0;  // sum of Elias-delta code lengths of the gaps (first gap from -1)
  Rank runs = 0;                 // maximal runs of consecutive world ranks
};

// Facts about a permutation (group rank -> set index).
struct PermutationStats {
  Rank n = 0;
  Rank ascending_runs = 0;  // maximal runs of increasing set indices along group ranks
};

struct SetKind {
  std::string_view name;
  std::size_t (*estimate_bytes)(const SetStats&);
  double (*estimate_ns)(const SetStats&);  // expected cost of one select + one rank
  SetPtr (*build)(std::span<const Rank> sorted, Rank universe);
};

struct PermutationKind {
  std::string_view name;
  std::size_t (*estimate_bytes)(const PermutationStats&);
  double (*estimate_ns)(const PermutationStats&);  // one apply + one inverse
  PermutationPtr (*build)(std::span<const Rank> set_index_of_rank);
};

// A list stores the map directly, without the set/permutation split.
struct ListKind {
  std::string_view name;
  std::size_t (*estimate_bytes)(const SetStats& members, bool ascending);
  double (*estimate_ns)(const SetStats& members);  // one select (rank_of is a linear scan)
  MapPtr (*build)(std::span<const Rank> world_ranks, Rank universe);
};

}  // namespace scomm::group
