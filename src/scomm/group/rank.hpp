// Rank type of the group layer; no MPI here, so the C API checks that kUndefined equals
// MPI_UNDEFINED (it does in Open MPI and MPICH).
#pragma once

#include <cstdint>

namespace scomm::group {

using Rank = std::int32_t;
inline constexpr Rank kUndefined = -32766;

// Error(kRank) unless 0 <= rank < size; `what` names where the rank came from.
void check_rank(int rank, Rank size, const char* what);

}  // namespace scomm::group
