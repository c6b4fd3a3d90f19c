// scomm against the native MPI call on the same ranks: repetitions alternate between the two,
// each first by turns, so that drift (frequency, other load) and whatever the first of a pair
// meets after the other's run hit both alike; rows carry the ratio scomm / native.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "timing.hpp"

namespace scomm::bench {

// Calls of `op` per repetition so that one repetition takes about `target_ns` (one call timed
// on the slowest rank, so that every rank agrees), between 1 and `most`.
template <typename Op>
int iterations_for(double target_ns, int most, Op&& op) {
  op();  // warm-up: connections, schedules, MPI's internal communicators
  const double one = time_per_call(MPI_COMM_WORLD, 3, 1, op).median_ns;
  return static_cast<int>(std::clamp(target_ns / std::max(one, 1.0), 1.0, double(most)));
}

// ns per call of `ours` and of `theirs`, `iterations` calls per repetition, alternating, each
// first by turns.
template <typename Ours, typename Theirs>
std::pair<Timing, Timing> interleaved(int reps, int iterations, Ours&& ours, Theirs&& theirs) {
  std::vector<double> a, b;
  const auto time_ours = [&] {
    a.push_back(time_per_call(MPI_COMM_WORLD, 1, iterations, ours).median_ns);
  };
  const auto time_theirs = [&] {
    b.push_back(time_per_call(MPI_COMM_WORLD, 1, iterations, theirs).median_ns);
  };
  for (int rep = 0; rep < reps; ++rep) {
    if (rep % 2 == 0) {
      time_ours();
      time_theirs();
    } else {
      time_theirs();
      time_ours();
    }
  }
  return {summarize(a), summarize(b)};
}

inline std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

// The two rows of one comparison, `what` the columns that name it (collective, bytes, ...).
inline void add_comparison(std::vector<Row>& rows, const std::string& experiment,
                           const std::string& name, const std::string& unit,
                           const std::pair<Timing, Timing>& times,
                           std::vector<std::pair<std::string, std::string>> what) {
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  what.emplace_back("scomm/native", fixed(times.first.median_ns / times.second.median_ns, 3));
  auto with = [&](const char* library) {
    auto extra = what;
    extra.emplace_back("library", library);
    return extra;
  };
  rows.push_back({experiment, name + ", scomm", unit, p, times.first, with("scomm")});
  rows.push_back({experiment, name + ", native", unit, p, times.second, with("native")});
}

}  // namespace scomm::bench
