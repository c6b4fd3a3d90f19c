// janus-sort (RBC slides E5/E6): Janus quicksort of random doubles, 2^0..2^20 elements per rank,
// the scomm build (local range communicators) against the MPI build (MPI_Comm_split), the two
// alternating within each repetition; every result is checked. The MPI row carries the ratio
// mpi/scomm of the medians.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments.hpp"
#include "janus_sort/inputs.hpp"
#include "janus_sort/janus_sort.hpp"
#include "scomm.h"

namespace scomm::bench {
namespace {

// Seconds of one checked sort of `per_rank` random doubles per rank, the slowest rank's.
double sort_once(bool use_scomm, std::uint64_t per_rank, std::uint64_t seed) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto r = static_cast<std::uint64_t>(rank);
  std::vector<double> data =
      janus::make_input<double>(janus::Distribution::kRandom, per_rank, r * per_rank,
                                per_rank * static_cast<std::uint64_t>(size), seed * 7919 + r);
  const std::uint64_t print = janus::fingerprint(data);
  janus::Options options;
  options.seed = seed;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  if (use_scomm)
    janus::sort(data, SCOMM_COMM_WORLD, options);
  else
    janus::sort_mpi(data, MPI_COMM_WORLD, options);
  double mine = MPI_Wtime() - start, slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (!janus::check(data, print, per_rank, MPI_COMM_WORLD).ok())
    throw std::runtime_error("janus-sort: a result was not sorted, balanced and a permutation");
  return slowest * 1e9;
}

// Fewer repetitions where one sort takes long.
int reps_for(int log_size, const MpiBenchOptions& options) {
  if (log_size >= 18) return std::max(1, options.reps / 4);
  if (log_size >= 14) return std::max(1, options.reps / 2);
  return options.reps;
}

}  // namespace

std::vector<Row> janus_sort(const MpiBenchOptions& options) {
  int processes = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  std::vector<Row> rows;
  const int step = options.quick ? 4 : 1, last = options.quick ? 16 : 20;
  for (int log_size = 0; log_size <= last; log_size += step) {
    const std::uint64_t per_rank = std::uint64_t{1} << log_size;
    std::vector<double> scomm_ns, mpi_ns;
    sort_once(true, per_rank, 0);  // warm-up: first-use costs of both builds
    sort_once(false, per_rank, 0);
    for (int rep = 0; rep < reps_for(log_size, options); ++rep) {
      const auto seed = static_cast<std::uint64_t>(rep + 1);
      scomm_ns.push_back(sort_once(true, per_rank, seed));
      mpi_ns.push_back(sort_once(false, per_rank, seed));
    }
    const Timing scomm = summarize(scomm_ns), mpi = summarize(mpi_ns);
    const std::string size = "n/P=2^" + std::to_string(log_size);
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", mpi.median_ns / scomm.median_ns);
    rows.push_back({"janus-sort", "scomm (create_range) " + size, "ns", processes, scomm, {}});
    rows.push_back(
        {"janus-sort", "mpi (MPI_Comm_split) " + size, "ns", processes, mpi, {{"ratio", ratio}}});
  }
  return rows;
}

}  // namespace scomm::bench
