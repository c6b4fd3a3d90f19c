// Strategies of the thesis (ch. 3.8): SPACE picks the smallest representation, TIME the fastest
// lookup, HYBRID minimises W = a*log(time) + (1-a)*log(space).
#pragma once

namespace scomm::group {

enum class MapStrategy { kSpace, kTime, kHybrid };

struct MapPolicy {
  MapStrategy strategy = MapStrategy::kHybrid;
  double alpha = 0.25;  // weight of time in HYBRID
};

}  // namespace scomm::group
