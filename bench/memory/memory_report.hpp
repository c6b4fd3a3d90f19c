// The memory analyzer's text table, JSON, and goal checks.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "../environment.hpp"
#include "analysis.hpp"
#include "memory_workloads.hpp"

namespace scomm::bench {

struct WorkloadMemory {
  std::string name, source;
  Rank world = 0;
  std::size_t budget_bytes = 0;
  std::vector<RankAnalysis> ranks;
};

struct Goal {
  std::string name;
  bool pass = false;
  std::string detail;
};

// The goals, computed from the analyses: every regular map <= 64 bytes; the workloads
// with a budget under it at every analysed rank.
std::vector<Goal> check_goals(const std::vector<WorkloadMemory>& results);

void print_memory_table(std::ostream& out, const WorkloadMemory& w);
void print_goals(std::ostream& out, const std::vector<Goal>& goals);
void write_memory_json(std::ostream& out, const Environment& where,
                       const std::vector<WorkloadMemory>& results, const std::vector<Goal>& goals);

}  // namespace scomm::bench
