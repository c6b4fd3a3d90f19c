// The arguments of the w-forms (MPI_Alltoallw, MPI_Neighbor_alltoallw): a count, a byte
// displacement and a datatype per block, each block a view of the schedule (schedule.hpp).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include "scomm/coll/data_args.hpp"

namespace scomm::coll {

// Appends to `views` the `n` blocks of `buffer`, block i being counts[i] elements of types[i]
// displs[i] bytes from `buffer` (MPI_BOTTOM with absolute addresses included), and returns the
// counts. Error(kArg) for a null array (all may be null where n is 0), then check_data for each
// block at its place.
template <typename Displacement>
std::span<const int> add_views(const void* buffer, const int* counts, const Displacement* displs,
                               const MPI_Datatype* types, int n, std::vector<View>& views) {
  if (n == 0) return {};
  if (counts == nullptr || displs == nullptr) [[unlikely]]
    throw_null_vector(counts);
  if (types == nullptr) [[unlikely]]
    throw_null_types();
  const auto base = reinterpret_cast<std::uintptr_t>(buffer);
  for (int i = 0; i < n; ++i) {
    const auto* address =
        reinterpret_cast<const void*>(base + static_cast<std::uintptr_t>(displs[i]));
    check_data(address, counts[i], types[i]);
    views.push_back({address, types[i]});
  }
  return {counts, static_cast<std::size_t>(n)};
}

}  // namespace scomm::coll
