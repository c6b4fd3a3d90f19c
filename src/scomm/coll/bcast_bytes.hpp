// Broadcasts that cut the buffer -- into segments (pipelined) or pieces (scatter + allgather) --
// must cut it alike at every member, but MPI lets the root's datatype differ from the others' as
// long as the type signatures match (the root may send one contiguous type of 64 doubles that
// the others receive as 64 MPI_DOUBLE). Cut in elements of each member's own type, the pieces
// would differ: messages mismatched, truncated or never matched. Such broadcasts therefore run on
// the data's bytes, cut alike everywhere: on the buffer itself where its elements are one
// contiguous run, else on a packed copy (MPI_Pack at the root first, MPI_Unpack at the others
// last). That relies on packed data being the data's bytes, as in Open MPI and MPICH between
// processes of one architecture; MPICH's own broadcasts rely on it too.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "scomm/coll/executor.hpp"
#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// A broadcast's data as bytes.
struct BcastBytes {
  std::int64_t count = 0;  // elements of the caller's type
  std::int64_t bytes = 0;
  bool packed = false;  // through a packed copy (a temporary of bytes)
  Binding binding;      // the schedule's buffers
};

// Error(kType) for an uncommitted type (check_committed, on `comm`).
BcastBytes bcast_bytes(void* buffer, int count, MPI_Datatype type, MPI_Comm comm);

// The schedule of a broadcast from shape.root whose rounds `add(schedule, data)` adds for a
// block of bytes, run on `view`.
template <typename Add>
Schedule bcast_in_bytes(const Shape& shape, const BcastBytes& view, Add&& add) {
  Schedule schedule;
  if (!view.packed) {
    add(schedule, Block{kOutput, 0, view.bytes});
    return schedule;
  }
  const Block packed{schedule.add_temp(TypeId::kByte, view.bytes), 0, view.bytes};
  const Block data{kOutput, 0, view.count};
  const bool root = shape.rank == shape.root;
  if (root) schedule.next_round().copy(data, packed);
  add(schedule, packed);
  if (!root) schedule.next_round().copy(packed, data);
  return schedule;
}

}  // namespace scomm::coll
