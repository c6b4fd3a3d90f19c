// Distributed graph creation against the base MPI's on the same ranks: every process names its
// ring neighbors and the process half the ring away, as edges it knows (adjacent: its own in- and
// out-lists) or as edges any process may name (the general form: each names its out-edges, and
// the edges must reach their other ends). Creation + free, repetitions alternating.
#include <string>
#include <vector>

#include "comparison.hpp"
#include "experiments.hpp"
#include "scomm.h"

namespace scomm::bench {
namespace {

// The ranks rank - 1, rank + 1 and rank + p / 2 of a ring of p: this process's out-neighbors,
// and (the ring being symmetric) its in-neighbors.
std::vector<int> ring_neighbors(int rank, int p) {
  return {(rank + p - 1) % p, (rank + 1) % p, (rank + p / 2) % p};
}

}  // namespace

std::vector<Row> dist_graph_create(const MpiBenchOptions& o) {
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::vector<int> neighbors = ring_neighbors(rank, p);
  const int degree = static_cast<int>(neighbors.size());
  std::vector<int> in;  // the processes that name this one among their out-neighbors
  for (int r = 0; r < p; ++r)
    for (const int n : ring_neighbors(r, p))
      if (n == rank) in.push_back(r);
  const int in_degree = static_cast<int>(in.size());
  const double target_ns = o.quick ? 2e5 : 2e7;
  std::vector<Row> rows;
  const auto compare = [&](const std::string& name, auto&& ours, auto&& theirs) {
    const int iterations = iterations_for(target_ns, 1000, theirs);
    ours();  // warm-up
    add_comparison(rows, "dist-graph-create", name, "ns per creation + free",
                   interleaved(o.reps, iterations, ours, theirs), {{"creation", name}});
  };
  compare(
      "Dist_graph_create_adjacent",
      [&] {
        SCOMM_Comm graph = SCOMM_COMM_NULL;
        SCOMM_Dist_graph_create_adjacent(SCOMM_COMM_WORLD, in_degree, in.data(), SCOMM_UNWEIGHTED,
                                         degree, neighbors.data(), SCOMM_UNWEIGHTED, MPI_INFO_NULL,
                                         0, &graph);
        SCOMM_Comm_free(&graph);
      },
      [&] {
        MPI_Comm graph = MPI_COMM_NULL;
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, in_degree, in.data(), MPI_UNWEIGHTED, degree,
                                       neighbors.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
        MPI_Comm_free(&graph);
      });
  compare(
      "Dist_graph_create",
      [&] {
        SCOMM_Comm graph = SCOMM_COMM_NULL;
        SCOMM_Dist_graph_create(SCOMM_COMM_WORLD, 1, &rank, &degree, neighbors.data(),
                                SCOMM_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
        SCOMM_Comm_free(&graph);
      },
      [&] {
        MPI_Comm graph = MPI_COMM_NULL;
        MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &degree, neighbors.data(), MPI_UNWEIGHTED,
                              MPI_INFO_NULL, 0, &graph);
        MPI_Comm_free(&graph);
      });
  return rows;
}

}  // namespace scomm::bench
