// The group workloads of the seeds, generated with fixed seeds: the thesis's 14 experiments at
// W = 200,000 (table 6.1), its classes A-E at W = 10^6 (ch. 5) and case studies (ch. 4), and the
// AV-Rankmap patterns at P = 786,432. Each is the list of world ranks of a group, in group order.
// Smaller worlds (--quick) keep every workload's shape.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "scomm/group/rank.hpp"

namespace scomm::bench {

using group::Rank;

struct Workload {
  std::string name;
  Rank world;
  std::vector<Rank> members;
  // A regular pattern by construction (range, stride, stride-block, box): the goal of a map of
  // at most 64 bytes applies to it.
  bool regular = false;
};

std::vector<Workload> thesis_workloads(Rank world);  // experiments 1-14 (world 200,000)
std::vector<Workload> thesis_classes(Rank world);    // classes A-E, several instances each (10^6)
std::vector<Workload> thesis_cases(Rank side);       // side x side matrix world (1024: 2^20)
std::vector<Workload> avrankmap_workloads(Rank world);  // P = 786,432
// `count` neighbourhoods of a node of the random graph G(world, p), each in distance order (the
// thesis's G(n, p) case), handed to `visit` one at a time so that they need not all be in memory.
void for_each_graph_neighbourhood(Rank world, double p, int count, unsigned seed,
                                  const std::function<void(std::vector<Rank>&)>& visit);

}  // namespace scomm::bench
