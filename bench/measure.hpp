// Measures one map: true bytes, build time and lookup speeds, medians over repetitions.
#pragma once

#include <functional>
#include <string>

#include "scomm/group/rank_map.hpp"

namespace scomm::bench {

struct Spread {
  double median = 0, min = 0, max = 0;
};

struct MapMeasurement {
  std::string representation;
  std::size_t bytes = 0;  // own + shared tables
  Spread build_ms, select_ns, sequential_ns, reverse_ns;
};

// Builds the map `reps` times with `build` and times each copy's lookups.
MapMeasurement measure_map(const std::function<group::MapPtr()>& build, int reps);

}  // namespace scomm::bench
