// Timing for MPI benchmarks: every repetition starts after a barrier and counts the slowest
// rank; the reported figure is the median over repetitions, with min and max.
#pragma once

#include <mpi.h>

#include <time.h>

#include <algorithm>
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
// `op` is a template parameter, so that a lambda is called in the loop directly: through a
// std::function every call paid an indirect call and its wrapper, some 18 instructions, which
// counted as part of the operation (a local creation's 500).
template <typename Op>
Timing time_per_call(MPI_Comm comm, int reps, int iterations, Op&& op) {
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

// CPU nanoseconds per call of a local operation `op` on this process: no communication is
// involved, so when ranks outnumber cores (oversubscribed runs) wall time would count the waits
// for a core, not the operation. Per repetition, the largest over ranks and the median rank's
// (a local operation waits for no other rank, and with thousands of ranks the largest is the
// one a timer interrupt or a page fault hit).
struct RankTimings {
  Timing slowest, median_rank;
};

template <typename Op>
RankTimings cpu_time_per_call_of_ranks(MPI_Comm comm, int reps, int iterations, Op&& op) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<double> slowest, median_rank, all(static_cast<std::size_t>(size));
  for (int rep = 0; rep < reps; ++rep) {
    MPI_Barrier(comm);
    timespec start{}, end{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    for (int i = 0; i < iterations; ++i) op();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
    double mine = (static_cast<double>(end.tv_sec - start.tv_sec) * 1e9 +
                   static_cast<double>(end.tv_nsec - start.tv_nsec)) /
                  iterations;
    MPI_Gather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, comm);
    double summary[2] = {0, 0};  // largest, median
    if (rank == 0) {
      const Timing over_ranks = summarize(all);
      summary[0] = over_ranks.max_ns;
      summary[1] = over_ranks.median_ns;
    }
    MPI_Bcast(summary, 2, MPI_DOUBLE, 0, comm);
    slowest.push_back(summary[0]);
    median_rank.push_back(summary[1]);
  }
  return {summarize(slowest), summarize(median_rank)};
}

// The largest over ranks alone.
template <typename Op>
Timing cpu_time_per_call(MPI_Comm comm, int reps, int iterations, Op&& op) {
  return cpu_time_per_call_of_ranks(comm, reps, iterations, op).slowest;
}

// One row of a result table: a measured quantity with its unit and optional extra columns.
struct Row {
  std::string experiment, name, unit;
  int processes = 0;
  Timing value;
  std::vector<std::pair<std::string, std::string>> extra;
};

}  // namespace scomm::bench
