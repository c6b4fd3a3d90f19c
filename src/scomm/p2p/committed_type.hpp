// Whether a datatype may carry data: committed (or predefined). MPI has no query for it, and a
// receive that scomm's own engine matches, a message to or from MPI_PROC_NULL or a persistent
// message's start meets the type in MPI late or never, where MPI itself would refuse it at once.
#pragma once

#include <mpi.h>

namespace scomm::p2p {

// Error(kType) unless `type` is predefined or committed, asked by an empty MPI_Pack on `comm`,
// whose errors must return (a base communicator): Open MPI and MPICH refuse to pack an
// uncommitted type, even none of it. Nothing is asked of SimGrid SMPI 3.32, which raises
// MPI_Pack's error on MPI_COMM_WORLD's fatal handler whatever the communicator.
void check_derived_committed(MPI_Datatype type, MPI_Comm comm);
inline void check_committed(MPI_Datatype type, MPI_Comm comm) {
  // The predefined types messages carry most, told without a call.
  if (type == MPI_BYTE || type == MPI_INT || type == MPI_DOUBLE || type == MPI_CHAR) return;
  check_derived_committed(type, comm);
}

}  // namespace scomm::p2p
