// What other systems would spend on a workload's map, from their published structures, and the
// information-theoretic bound; computed, not measured.
#pragma once

#include <cstddef>
#include <span>

#include "scomm/group/rank.hpp"

namespace scomm::bench {

struct Baselines {
  double plain_array;  // 4 bytes per member
  double mpich;        // AV-Rankmap: constant for direct/offset/stride/stride-block, else 8 B/rank
  double open_mpi;     // sparse groups: min of dense, strided, sporadic and bitmap formulas
  double bound;        // log2 C(W, n) bits, plus log2 n! unless ascending
};

Baselines compute_baselines(std::span<const group::Rank> members, group::Rank world);

}  // namespace scomm::bench
