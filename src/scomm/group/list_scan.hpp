// rank_of for lists: a linear scan, as MPICH and Open MPI do for their dense tables.
#pragma once

#include "scomm/group/rank.hpp"

namespace scomm::group {

template <typename Lookup>
Rank scan_rank_of(Rank n, Rank world, Lookup lookup) noexcept {
  if (world < 0) return kUndefined;
  for (Rank r = 0; r < n; ++r)
    if (lookup(r) == world) return r;
  return kUndefined;
}

}  // namespace scomm::group
