// The strategy at work: ranks every representation of an irregular map by its estimated size and
// lookup time (analytic, from one pass of statistics) and builds only the winner.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "scomm/group/rank_map.hpp"
#include "scomm/group/strategy.hpp"

namespace scomm::group {

struct MapCandidate {
  std::string name;
  std::size_t bytes = 0;  // estimated
  double ns = 0;          // estimated select + rank_of
};

// All candidates for `world_ranks` (no duplicates, all >= 0), best first under `policy`.
std::vector<MapCandidate> rank_candidates(std::span<const Rank> world_ranks,
                                          const MapPolicy& policy);
// Builds the best candidate under `policy`.
MapPtr build_irregular_map(std::span<const Rank> world_ranks, const MapPolicy& policy);
// Builds the candidate named `name` (as listed by rank_candidates), or nullptr.
MapPtr build_named_map(std::span<const Rank> world_ranks, std::string_view name);

}  // namespace scomm::group
