// Rank type of the group layer; no MPI here, so the C API checks that kUndefined equals
// MPI_UNDEFINED (it does in Open MPI and MPICH).
#pragma once

#include <cstdint>

namespace scomm::group {

using Rank = std::int32_t;
inline constexpr Rank kUndefined = -32766;

}  // namespace scomm::group
