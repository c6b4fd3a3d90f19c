// janus-sort: sorts generated data with Janus quicksort and checks the result.
//
//   mpirun -np P janus-sort [--n ELEMENTS_PER_RANK] [--dist random|sorted|reverse|equal|skewed]
//                           [--build scomm|mpi|both] [--reps R] [--seed S]
//
// Prints, per build, the slowest rank's median time over R runs, the median of the most any rank
// spent creating and freeing subgroups (janus::Stats) and whether every run was sorted, balanced
// and a permutation of its input; exits 1 if any was not.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "janus_sort/inputs.hpp"
#include "janus_sort/janus_sort.hpp"
#include "scomm.h"

namespace {

struct Arguments {
  std::uint64_t n = 1 << 16;
  janus::Distribution distribution = janus::Distribution::kRandom;
  std::string build = "both";
  int reps = 3;
  std::uint64_t seed = 1;
};

Arguments parse(int argc, char** argv) {
  Arguments a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
    const std::string value = argv[++i];
    if (arg == "--n")
      a.n = std::stoull(value);
    else if (arg == "--dist")
      a.distribution = janus::distribution_named(value);
    else if (arg == "--build")
      a.build = value;
    else if (arg == "--reps")
      a.reps = std::max(1, std::stoi(value));
    else if (arg == "--seed")
      a.seed = std::stoull(value);
    else
      throw std::invalid_argument("unknown option " + arg);
  }
  if (a.build != "scomm" && a.build != "mpi" && a.build != "both")
    throw std::invalid_argument("--build is scomm, mpi or both");
  return a;
}

struct Seconds {
  double sort = 0;      // the slowest rank's
  double creation = 0;  // the most any rank spent creating and freeing subgroups
};

// One timed, checked sort with the build `which`.
Seconds run_once(const Arguments& a, const std::string& which, int rep, bool& ok) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto r = static_cast<std::uint64_t>(rank);
  std::vector<double> data = janus::make_input<double>(
      a.distribution, a.n, r * a.n, a.n * static_cast<std::uint64_t>(size), a.seed + r);
  const std::uint64_t print = janus::fingerprint(data), count = data.size();
  janus::Stats stats;
  janus::Options options;
  options.seed = a.seed + static_cast<std::uint64_t>(rep);
  options.stats = &stats;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  if (which == "scomm")
    janus::sort(data, SCOMM_COMM_WORLD, options);
  else
    janus::sort_mpi(data, MPI_COMM_WORLD, options);
  const double mine[2] = {MPI_Wtime() - start, stats.creation_seconds};
  double most[2] = {0, 0};
  MPI_Allreduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const janus::Check check = janus::check(data, print, count, MPI_COMM_WORLD);
  if (!check.ok() && rank == 0)
    std::fprintf(stderr, "janus-sort (%s): sorted=%d balanced=%d permutation=%d\n", which.c_str(),
                 check.sorted, check.balanced, check.permutation);
  ok = ok && check.ok();
  return {most[0], most[1]};
}

double median(std::vector<double> values) {
  std::ranges::sort(values);
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  SCOMM_Init();
  int rank = 0, size = 0, status = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  try {
    const Arguments a = parse(argc, argv);
    for (const std::string which : {"scomm", "mpi"}) {
      if (a.build != "both" && a.build != which) continue;
      bool ok = true;
      std::vector<double> sorts, creations;
      for (int rep = 0; rep < a.reps; ++rep) {
        const Seconds s = run_once(a, which, rep, ok);
        sorts.push_back(s.sort);
        creations.push_back(s.creation);
      }
      if (rank == 0)
        std::printf(
            "janus-sort build=%s P=%d n/P=%llu dist=%s median=%.6f s min=%.6f s "
            "in-creation=%.6f s %s\n",
            which.c_str(), size, static_cast<unsigned long long>(a.n),
            janus::name_of(a.distribution), median(sorts), *std::ranges::min_element(sorts),
            median(creations), ok ? "OK" : "FAILED");
      if (!ok) status = 1;
    }
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "janus-sort: %s\n", e.what());
    status = 1;
  }
  SCOMM_Finalize();
  MPI_Finalize();
  return status;
}
