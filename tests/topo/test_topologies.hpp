// The topologies the multilevel builders are tested on, and the simulator's cost model of a
// topology: shared by the topo tests.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/level_model.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo::testing {

struct Topology {
  std::string name;
  std::function<Levels(int p)> make;
  std::vector<int> sizes;  // the communicator sizes to test it at
};

inline std::vector<int> one_to(int n) {
  std::vector<int> sizes;
  for (int p = 1; p <= n; ++p) sizes.push_back(p);
  return sizes;
}

// Levels from a rule color(rank, level).
inline Levels from_rule(std::vector<std::string> names, int p,
                        const std::function<std::int64_t(int rank, int level)>& color) {
  std::vector<std::vector<std::int64_t>> colors(names.size(), std::vector<std::int64_t>(p));
  for (std::size_t l = 0; l < names.size(); ++l)
    for (int r = 0; r < p; ++r) colors[l][r] = color(r, static_cast<int>(l));
  return Levels::from_colors(std::move(names), colors);
}

// Flat, 1-4 regular levels, uneven and round-robin (non-contiguous) clusters at 1..20 ranks;
// Karonis et al.'s Fig. 1 (20 ranks) and their benchmark's 48 = 16 + 16 + 16 on three machines
// at two sites.
inline const std::vector<Topology>& topologies() {
  static const std::vector<Topology> kTopologies = {
      {"flat", [](int p) { return Levels::blocks({}, {}, p); }, one_to(20)},
      {"nodes_of_4", [](int p) { return Levels::blocks({"node"}, {4}, p); }, one_to(20)},
      {"sites_nodes",
       [](int p) {
         return Levels::blocks({"site", "node"}, {8, 4}, p);
       },
       one_to(20)},
      {"three_levels",
       [](int p) {
         return Levels::blocks({"site", "node", "numa"}, {12, 6, 3}, p);
       },
       one_to(20)},
      {"four_levels",
       [](int p) {
         return Levels::blocks({"site", "lan", "node", "socket"}, {16, 8, 4, 2}, p);
       },
       one_to(20)},
      {"uneven",  // a small first site; nodes of 3 cut by the site border
       [](int p) {
         return from_rule({"site", "node", "socket"}, p, [p](int r, int l) {
           return l == 0 ? (r < (p + 2) / 3 ? 0 : 1) : l == 1 ? r / 3 : r / 2;
         });
       },
       one_to(20)},
      {"round_robin",  // non-contiguous clusters
       [](int p) {
         return from_rule({"site", "node"}, p, [](int r, int l) { return l == 0 ? r % 3 : r % 2; });
       },
       one_to(20)},
      {"karonis_fig1",  // 10 ranks on the SP at SDSC, 5 on each of two O2Ks at NCSA
       [](int p) {
         return from_rule({"site", "machine"}, p, [](int r, int l) {
           return l == 0 ? (r < 10 ? 0 : 1) : (r < 10 ? 0 : r < 15 ? 1 : 2);
         });
       },
       {20}},
      {"karonis_48",  // 16 + 16 + 16 on three machines, the first two at one site
       [](int p) {
         return from_rule({"site", "machine"}, p,
                          [](int r, int l) { return l == 0 ? (r < 32 ? 0 : 1) : r / 16; });
       },
       {48}},
  };
  return kTopologies;
}

}  // namespace scomm::topo::testing
