// The memory workloads of the seeds: what one rank of a named application pattern holds, at the
// virtual world size of the paper that measured it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "rank_state.hpp"

namespace scomm::bench {

struct MemoryWorkload {
  std::string name;
  std::string source;  // the published figure it is set beside
  Rank world = 0;
  std::vector<Rank> ranks;  // the world ranks analysed (first and last member, as a rule)
  std::function<void(RankState&)> build;  // makes the rank's communicators and groups
  std::size_t budget_bytes = 0;           // a goal on scomm's total state per rank (0: none)
};

// --quick shrinks every world (and counts of random communicators) by about 32x, shapes kept.
std::vector<MemoryWorkload> memory_workloads(bool quick);

// n odd/even splits of the world: the AV-Rankmap Fig. 3 benchmark (exposed for the unit test).
void odd_even_splits(RankState& state, int n);

}  // namespace scomm::bench
