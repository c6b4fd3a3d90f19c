// janus-sort (RBC slides E5/E6): Janus quicksort of random doubles, 2^0..2^20 elements per rank,
// the scomm build (local range communicators) against the MPI build (MPI_Comm_split), the two
// alternating within each repetition, each first by turns; every result is checked. The MPI row
// carries the ratio mpi/scomm of the medians; each row the median time its build spent creating
// and freeing subgroups (janus::Stats, the most of any rank): the only work the builds do
// differently.
#include <mpi.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "comparison.hpp"
#include "experiments.hpp"
#include "janus_sort/inputs.hpp"
#include "janus_sort/janus_sort.hpp"
#include "scomm.h"

namespace scomm::bench {
namespace {

struct SortTime {
  double ns = 0;           // the slowest rank's
  double creation_ns = 0;  // the most any rank spent creating and freeing subgroups
};

// One checked sort of `per_rank` random doubles per rank.
SortTime sort_once(bool use_scomm, std::uint64_t per_rank, std::uint64_t seed) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto r = static_cast<std::uint64_t>(rank);
  std::vector<double> data =
      janus::make_input<double>(janus::Distribution::kRandom, per_rank, r * per_rank,
                                per_rank * static_cast<std::uint64_t>(size), seed * 7919 + r);
  const std::uint64_t print = janus::fingerprint(data);
  janus::Stats stats;
  janus::Options options;
  options.seed = seed;
  options.stats = &stats;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  if (use_scomm)
    janus::sort(data, SCOMM_COMM_WORLD, options);
  else
    janus::sort_mpi(data, MPI_COMM_WORLD, options);
  const double mine[2] = {MPI_Wtime() - start, stats.creation_seconds};
  double most[2] = {0, 0};
  MPI_Allreduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (!janus::check(data, print, per_rank, MPI_COMM_WORLD).ok())
    throw std::runtime_error("janus-sort: a result was not sorted, balanced and a permutation");
  return {most[0] * 1e9, most[1] * 1e9};
}

// The row of one build: its times, and its median creation time.
Row row_of(const std::string& name, int processes, const std::vector<SortTime>& times,
           std::vector<std::pair<std::string, std::string>> extra) {
  std::vector<double> ns, creation_ns;
  for (const SortTime& t : times) {
    ns.push_back(t.ns);
    creation_ns.push_back(t.creation_ns);
  }
  extra.emplace_back("creation_ns", fixed(summarize(creation_ns).median_ns, 0));
  return {"janus-sort", name, "ns", processes, summarize(ns), std::move(extra)};
}

// At most five repetitions where one sort takes a tenth of a second or more.
int reps_for(int log_size, const MpiBenchOptions& options) {
  return log_size >= 18 ? std::min(options.reps, 5) : options.reps;
}

}  // namespace

std::vector<Row> janus_sort(const MpiBenchOptions& options) {
  int processes = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  std::vector<Row> rows;
  const int step = options.quick ? 4 : 1, last = options.quick ? 16 : 20;
  // Warm-up before the first size: connections between every pair of ranks, pages, and the
  // world's first short runs of reserved blocks (one allreduce per 2, 4, ... sorts), which one
  // warm-up sort per size would leave to the first size's repetitions.
  constexpr int kWarmUpSorts = 32;
  for (int k = 0; k < kWarmUpSorts; ++k) {
    sort_once(true, 1, 0);
    sort_once(false, 1, 0);
  }
  for (int log_size = 0; log_size <= last; log_size += step) {
    const std::uint64_t per_rank = std::uint64_t{1} << log_size;
    std::vector<SortTime> scomm_times, mpi_times;
    sort_once(true, per_rank, 0);  // warm-up: first-use costs of both builds
    sort_once(false, per_rank, 0);
    for (int rep = 0; rep < reps_for(log_size, options); ++rep) {
      const auto seed = static_cast<std::uint64_t>(rep + 1);
      for (const bool use_scomm : {rep % 2 == 0, rep % 2 != 0}) {  // each build first by turns
        (use_scomm ? scomm_times : mpi_times).push_back(sort_once(use_scomm, per_rank, seed));
      }
    }
    const std::string size = "n/P=2^" + std::to_string(log_size);
    Row scomm = row_of("scomm (create_range) " + size, processes, scomm_times, {});
    Row mpi = row_of("mpi (MPI_Comm_split) " + size, processes, mpi_times, {});
    mpi.extra.emplace_back("ratio", fixed(mpi.value.median_ns / scomm.value.median_ns, 2));
    rows.push_back(std::move(scomm));
    rows.push_back(std::move(mpi));
  }
  return rows;
}

}  // namespace scomm::bench
