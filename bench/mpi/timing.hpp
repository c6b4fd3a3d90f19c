// Timing for MPI benchmarks: every repetition starts after a barrier and counts the slowest
// rank; the reported figure is the median over repetitions, with min and max.
#pragma once

#include <mpi.h>

#include <time.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace scomm::bench {

struct Timing {
  double median_ns = 0, min_ns = 0, max_ns = 0;
};

// The median of an even count is the mean of the two middle samples.
inline Timing summarize(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  if (samples.empty()) return {};
  const std::size_t half = samples.size() / 2;
  const double median =
      samples.size() % 2 == 1 ? samples[half] : (samples[half - 1] + samples[half]) / 2;
  return {median, samples.front(), samples.back()};
}

// Nanoseconds per call of `op` (run `iterations` times per repetition), slowest rank per rep.
inline Timing time_per_call(MPI_Comm comm, int reps, int iterations,
                            const std::function<void()>& op) {
  std::vector<double> samples;
  for (int rep = 0; rep < reps; ++rep) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (int i = 0; i < iterations; ++i) op();
    double mine = (MPI_Wtime() - start) * 1e9 / iterations, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    samples.push_back(slowest);
  }
  return summarize(samples);
}

// CPU nanoseconds per call of a local operation `op` on this process, the largest over ranks:
// no communication is involved, so when ranks outnumber cores (oversubscribed runs) wall time
// would count the waits for a core, not the operation.
inline Timing cpu_time_per_call(MPI_Comm comm, int reps, int iterations,
                                const std::function<void()>& op) {
  std::vector<double> samples;
  for (int rep = 0; rep < reps; ++rep) {
    MPI_Barrier(comm);
    timespec start{}, end{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    for (int i = 0; i < iterations; ++i) op();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
    double mine = (static_cast<double>(end.tv_sec - start.tv_sec) * 1e9 +
                   static_cast<double>(end.tv_nsec - start.tv_nsec)) /
                  iterations,
           slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    samples.push_back(slowest);
  }
  return summarize(samples);
}

// One row of a result table: a measured quantity with its unit and optional extra columns.
struct Row {
  std::string experiment, name, unit;
  int processes = 0;
  Timing value;
  std::vector<std::pair<std::string, std::string>> extra;
};

}  // namespace scomm::bench
