// Bosilca et al.'s context-id stress benchmark: splits on randomly selected live communicators
// (same seed everywhere), nothing freed until the end. A target size is drawn, a live
// communicator at least that large selected, and that many of its members take part. LARGE_COMM:
// p minus 0-8 ranks; SMALL_COMM: 8-16 ranks (below 32 processes: p minus 0 to p/4, and p/4 to
// p/2). Per-split times, all samples of all processes, for every allocation
// algorithm x storage of scomm and for the native MPI_Comm_split.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>

#include "experiments.hpp"
#include "scomm.h"

namespace scomm::bench {
namespace {

enum class Criterion { kLarge, kSmall };

struct Live {
  std::vector<int> members;  // world ranks
  SCOMM_Comm scomm = SCOMM_COMM_NULL;
  MPI_Comm mpi = MPI_COMM_NULL;
};

// The next split: the index of the selected communicator and its participating members.
std::pair<std::size_t, std::vector<int>> next_split(const std::vector<Live>& live,
                                                    Criterion criterion, int p,
                                                    std::mt19937& random) {
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  int target = 0;
  if (criterion == Criterion::kSmall) {
    const int low = p >= 32 ? 8 : std::max(1, p / 4), high = p >= 32 ? 16 : std::max(1, p / 2);
    target = uniform(low, high);
  } else {
    target = p - uniform(0, p >= 32 ? 8 : p / 4);
  }
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < live.size(); ++i)
    if (static_cast<int>(live[i].members.size()) >= std::max(target, 1)) candidates.push_back(i);
  const std::size_t chosen =
      candidates[static_cast<std::size_t>(uniform(0, static_cast<int>(candidates.size()) - 1))];
  std::vector<int> members = live[chosen].members;
  std::shuffle(members.begin(), members.end(), random);
  members.resize(static_cast<std::size_t>(target));
  std::sort(members.begin(), members.end());  // rank order preserved
  return {chosen, members};
}

// Runs the benchmark with scomm (native == false) or MPI; returns this process's split times.
std::vector<double> run(Criterion criterion, bool native, int splits) {
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<Live> live(1);
  live[0].members.resize(static_cast<std::size_t>(p));
  std::iota(live[0].members.begin(), live[0].members.end(), 0);
  live[0].scomm = SCOMM_COMM_WORLD;
  live[0].mpi = MPI_COMM_WORLD;
  std::mt19937 random(20181);
  std::vector<double> times;
  for (int s = 0; s < splits; ++s) {
    auto [chosen, members] = next_split(live, criterion, p, random);
    Live next{members, SCOMM_COMM_NULL, MPI_COMM_NULL};
    const Live& parent = live[chosen];
    if (std::binary_search(parent.members.begin(), parent.members.end(), rank)) {
      const bool in = std::binary_search(members.begin(), members.end(), rank);
      const int color = in ? 0 : MPI_UNDEFINED;
      const double start = MPI_Wtime();
      if (native)
        MPI_Comm_split(parent.mpi, color, 0, &next.mpi);
      else
        SCOMM_Comm_split(parent.scomm, color, 0, &next.scomm);
      times.push_back((MPI_Wtime() - start) * 1e9);
    }
    live.push_back(std::move(next));
  }
  for (std::size_t i = live.size(); i-- > 1;) {
    if (live[i].scomm != SCOMM_COMM_NULL) SCOMM_Comm_free(&live[i].scomm);
    if (live[i].mpi != MPI_COMM_NULL) MPI_Comm_free(&live[i].mpi);
  }
  return times;
}

// Every process's samples at rank 0; median, p90, max there, broadcast so all ranks agree.
Row distribution(const std::string& name, const std::vector<double>& mine) {
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(p)), offsets(counts.size());
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
  std::vector<double> all(static_cast<std::size_t>(offsets.back() + counts.back()));
  MPI_Gatherv(mine.data(), n, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  std::sort(all.begin(), all.end());
  double stats[4] = {0, 0, 0, 0};  // median, p90, max, min
  if (rank == 0 && !all.empty())
    stats[0] = all[all.size() / 2], stats[1] = all[all.size() * 9 / 10], stats[2] = all.back(),
    stats[3] = all.front();
  MPI_Bcast(stats, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  Row row{"context-stress", name, "ns per split", p, {stats[0], stats[3], stats[2]}, {}};
  row.extra = {{"p90 ns", std::to_string(static_cast<long>(stats[1]))},
               {"samples", std::to_string(all.size())}};
  return row;
}

}  // namespace

std::vector<Row> context_stress(const MpiBenchOptions& o) {
  const int splits = o.quick ? 50 : o.stress_splits;
  std::vector<Row> rows;
  for (const auto& [criterion, label] :
       {std::pair{Criterion::kLarge, "LARGE_COMM"}, std::pair{Criterion::kSmall, "SMALL_COMM"}}) {
    rows.push_back(
        distribution(std::string(label) + ": MPI_Comm_split", run(criterion, true, splits)));
    for (const char* algorithm : {"vanilla", "bitmask", "highest"})
      for (const char* storage : {"array", "fixed", "tree", "radix"}) {
        SCOMM_Finalize();
        setenv("SCOMM_CONTEXT_ALGORITHM", algorithm, 1);
        setenv("SCOMM_CONTEXT_STORAGE", storage, 1);
        SCOMM_Init();
        rows.push_back(
            distribution(std::string(label) + ": scomm split, " + algorithm + " + " + storage,
                         run(criterion, false, splits)));
      }
  }
  SCOMM_Finalize();
  unsetenv("SCOMM_CONTEXT_ALGORITHM");
  unsetenv("SCOMM_CONTEXT_STORAGE");
  SCOMM_Init();
  return rows;
}

}  // namespace scomm::bench
