// The collectives of the coll layer, with MPI's parameters and semantics (MPI_IN_PLACE,
// predefined and user-defined operations, any datatype). Each checks its arguments, picks its
// algorithm (selection.hpp) and launches the schedule: blocking calls return a completed
// request, nonblocking ones a request that completes in scomm's wait and test calls. One file
// each: barrier.cpp, bcast.cpp, ...
#pragma once

#include <mpi.h>

#include "scomm/coll/collective.hpp"

namespace scomm::coll {

p2p::Request barrier(const Call& call);
p2p::Request bcast(const Call& call, void* buffer, int count, MPI_Datatype type, int root);
p2p::Request allreduce(const Call& call, const void* sendbuf, void* recvbuf, int count,
                       MPI_Datatype type, MPI_Op op);
p2p::Request reduce(const Call& call, const void* sendbuf, void* recvbuf, int count,
                    MPI_Datatype type, MPI_Op op, int root);
p2p::Request scan(const Call& call, const void* sendbuf, void* recvbuf, int count,
                  MPI_Datatype type, MPI_Op op);
p2p::Request exscan(const Call& call, const void* sendbuf, void* recvbuf, int count,
                    MPI_Datatype type, MPI_Op op);
p2p::Request reduce_scatter_block(const Call& call, const void* sendbuf, void* recvbuf,
                                  int recvcount, MPI_Datatype type, MPI_Op op);
p2p::Request reduce_scatter(const Call& call, const void* sendbuf, void* recvbuf,
                            const int recvcounts[], MPI_Datatype type, MPI_Op op);

}  // namespace scomm::coll
