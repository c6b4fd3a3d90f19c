// What other systems spend on a workload's map, computed from their data structures and
// selection rules (re-derived here, independent of scomm's own detection), and the
// information-theoretic bound. Computed, not measured.
#pragma once

#include <span>

#include "scomm/group/rank.hpp"

namespace scomm::bench {

struct Baselines {
  double plain_array;  // 4 bytes per member
  double mpich;        // MPIR_Group pmap: 32 B when strided, else 32 B + 8 B per member
  double open_mpi;     // sparse groups: min of the dense, strided, sporadic and bitmap formulas
  double bound;        // log2 C(W, n) bits, plus log2 n! unless ascending; in bytes
};

Baselines compute_baselines(std::span<const group::Rank> members, group::Rank world);

}  // namespace scomm::bench
