// Argument checks the data-movement collectives share (gather, scatter, allgather, alltoall and
// their v-forms), on top of collective.hpp's: MPI_IN_PLACE only where MPI allows it, and count and
// displacement arrays.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "scomm/coll/collective.hpp"

namespace scomm::coll {

// Error(kBuffer) for MPI_IN_PLACE, which this buffer cannot be in this call.
void check_not_in_place(const void* buffer);
// check_not_in_place, then check_data.
void check_buffer(const void* buffer, std::int64_t count, MPI_Datatype type);
// Error(kArg) for a null counts or displacements array, then check_data for each rank's block
// (`size` of them) of `buffer`.
void check_vector(const void* buffer, const int* counts, const int* displs, int size,
                  MPI_Datatype type);

}  // namespace scomm::coll
