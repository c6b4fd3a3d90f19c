// The MPI experiments of scomm-mpibench, one file each.
#pragma once

#include <string>
#include <vector>

#include "timing.hpp"

namespace scomm::bench {

struct MpiBenchOptions {
  int reps = 11;
  bool quick = false;
  int stress_splits = 2000;
  // multilevel-bcast: the variant's name, roots sampled (0: every rank), the largest message and
  // the platform's levels as a topology file (recorded with the rows).
  std::string variant = "default";
  int roots = 0;
  int max_bytes = 1 << 20;
  std::string topology;
  // collectives: the operations measured, comma-separated as in the table (e.g. "Gather,Bcast");
  // empty: all.
  std::string only;
};

std::vector<Row> split_halves(const MpiBenchOptions& options);
std::vector<Row> groups_of_four(const MpiBenchOptions& options);
std::vector<Row> context_stress(const MpiBenchOptions& options);
std::vector<Row> p2p_overhead(const MpiBenchOptions& options);
std::vector<Row> collectives(const MpiBenchOptions& options);
std::vector<Row> neighbor_collectives(const MpiBenchOptions& options);
std::vector<Row> dist_graph_create(const MpiBenchOptions& options);
std::vector<Row> split_ibcast(const MpiBenchOptions& options);
std::vector<Row> simulator_fit(const MpiBenchOptions& options);
std::vector<Row> janus_sort(const MpiBenchOptions& options);
std::vector<Row> multilevel_bcast(const MpiBenchOptions& options);

}  // namespace scomm::bench
