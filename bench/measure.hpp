// Measures one map: true bytes, build time and lookup speeds, medians over repetitions.
//
// Lookups come from a pre-generated array of random ranks (the same for every representation of
// a workload); each timing is one batch over the whole array (2^17 lookups) after one warm-up
// batch, results summed into a volatile sink, timed with std::chrono::steady_clock. A batch of a
// slow representation stops early once its time budget is spent; the number of lookups it timed
// is reported.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "scomm/group/rank_map.hpp"

namespace scomm::bench {

struct TimingOptions {
  std::size_t lookups = std::size_t{1} << 17;  // per batch
  double budget_seconds = 0.25;                // per batch, for slow representations
};

// Random group ranks and the members at those ranks (the arguments of rank_of).
struct LookupSample {
  std::vector<group::Rank> ranks, members;
};
LookupSample make_lookup_sample(std::span<const group::Rank> members, std::size_t count);

struct Spread {
  double median = 0, min = 0, max = 0;
};

struct MapMeasurement {
  std::string representation;
  bool regular = false;   // as_box(): a constant-size regular pattern
  std::size_t bytes = 0;  // bytes() + shared_bytes()
  Spread build_ms, select_ns, sequential_ns, reverse_ns;
  std::size_t select_lookups = 0, reverse_lookups = 0;  // timed in the last batch
};

// Builds the map `reps` times with `build`, checks it against the sample once, and times each
// copy's lookups.
MapMeasurement measure_map(const std::function<group::MapPtr()>& build, const LookupSample& sample,
                           int reps, const TimingOptions& timing);

}  // namespace scomm::bench
