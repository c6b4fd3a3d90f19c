// Starting one nonblocking message with every argument checked: the general paths of SCOMM_Isend
// and SCOMM_Irecv (capi/p2p.cpp), and SCOMM_Start of a persistent request.
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

// The new request's handle; Error for a bad argument or an MPI failure. `c` is e's handle.
SCOMM_Request start_isend(CommEntry& e, SCOMM_Comm c, const Transfer<const void*>& out,
                          p2p::SendMode mode);
SCOMM_Request start_irecv(CommEntry& e, SCOMM_Comm c, const Transfer<void*>& in);

}  // namespace scomm::capi
