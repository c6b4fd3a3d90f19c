// What every collective shares: the call (communicator, blocking or not, algorithm selection),
// argument checks that report MPI-style errors, and launching a schedule.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "scomm/coll/executor.hpp"
#include "scomm/coll/selection.hpp"
#include "scomm/coll/shape.hpp"
#include "scomm/comm/comm.hpp"
#include "scomm/comm/runtime.hpp"

namespace scomm::coll {

struct Call {
  comm::Runtime& runtime;
  comm::Comm& comm;
  const Selection& selection;
  bool blocking;

  Shape shape(int root = 0) const noexcept { return {comm.rank(), comm.size(), root}; }
};

// Runs `schedule` to the end (blocking: the returned request is complete) or starts it as a
// nonblocking collective that progresses whenever scomm waits.
p2p::Request launch(const Call& call, Schedule schedule, const Binding& binding);

// Error(kRoot) unless 0 <= root < size.
void check_root(const Call& call, int root);
// Error(kCount) for a negative count, Error(kType) for MPI_DATATYPE_NULL, Error(kBuffer) for a
// null buffer that must hold data.
void check_data(const void* buffer, std::int64_t count, MPI_Datatype type);
// Error(kOp) for MPI_OP_NULL.
void check_op(MPI_Op op);
// Error(kBuffer) when a send buffer is the receive buffer without MPI_IN_PLACE (MPI forbids the
// aliasing; it would silently corrupt the result).
void check_not_aliased(const void* sendbuf, const void* recvbuf, std::int64_t count);
// Bytes of `count` elements of `type`.
std::int64_t bytes_of(std::int64_t count, MPI_Datatype type);
bool is_commutative(MPI_Op op);

}  // namespace scomm::coll
