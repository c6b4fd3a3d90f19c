// The group workloads of the seeds, generated with fixed seeds: the thesis's 14 experiments at
// W = 200,000, its classes A-E at W = 10^6 and case studies, and the AV-Rankmap patterns at
// P = 786,432. Each is the list of world ranks of a group, in group order.
#pragma once

#include <string>
#include <vector>

#include "scomm/group/rank.hpp"

namespace scomm::bench {

using group::Rank;

struct Workload {
  std::string name;
  Rank world;
  std::vector<Rank> members;
};

std::vector<Workload> thesis_workloads(Rank world);  // experiments 1-14
std::vector<Workload> thesis_classes(Rank world);    // classes A-E, several instances each
std::vector<Workload> thesis_cases();                // matrix, mesh, transpose, graph
std::vector<Workload> avrankmap_workloads(Rank world);

}  // namespace scomm::bench
