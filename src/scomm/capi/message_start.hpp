// Checking a message's arguments, and starting one nonblocking message with every argument
// checked: the general paths of SCOMM_Isend and SCOMM_Irecv (capi/p2p.cpp), persistent requests
// and matched probes.
#pragma once

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/p2p/point_to_point.hpp"

namespace scomm::capi {

// One side of a message: the buffer, its count and type, the peer and the tag.
template <class Buffer>
struct Transfer {
  Buffer buffer;
  int count;
  MPI_Datatype type;
  int peer;
  int tag;
};

// Error (kBuffer, kCount, kType, kRank, kTag) unless the arguments make a send to `dest`, or a
// receive from `source` (MPI_ANY_SOURCE, MPI_PROC_NULL and MPI_ANY_TAG allowed), on `channel`.
void check_send(const p2p::Channel& channel, const void* buf, int count, MPI_Datatype type,
                int dest, int tag);
void check_receive(const p2p::Channel& channel, const void* buf, int count, MPI_Datatype type,
                   int source, int tag);

// The new request's handle; Error for a bad argument or an MPI failure. `c` is e's handle.
SCOMM_Request start_isend(CommEntry& e, SCOMM_Comm c, const Transfer<const void*>& out,
                          p2p::SendMode mode);
SCOMM_Request start_irecv(CommEntry& e, SCOMM_Comm c, const Transfer<void*>& in);

}  // namespace scomm::capi
