// Strategies of the thesis (ch. 3.8): SPACE picks the smallest representation, TIME the fastest
// lookup, HYBRID minimises W = a*log(time) + (1-a)*log(space).
#pragma once

namespace scomm::group {

enum class MapStrategy { kSpace, kTime, kHybrid };

struct MapPolicy {
  MapStrategy strategy = MapStrategy::kHybrid;
  double alpha = 0.25;  // weight of time in HYBRID
  // HYBRID considers only representations whose estimated select + rank_of stays below this (or
  // below 1.5x the fastest candidate when none does), so a balanced pick never trades a 10x
  // slower lookup for a few bytes.
  double hybrid_max_ns = 200.0;
};

}  // namespace scomm::group
