// The multilevel collectives as calls (SCOMM_COLL_<OP>=multilevel): the same checks as the flat
// entry points of coll/, then the multilevel schedule of the communicator's network (levels and
// their costs; bcast, reduce, allreduce and barrier leave out the levels whose relay does not pay
// for itself), launched by the same executor (cached per communicator).
#pragma once

#include <mpi.h>

#include "scomm/coll/collective.hpp"
#include "scomm/topo/network.hpp"

namespace scomm::topo {

p2p::Request bcast(const coll::Call& call, const Network& network, void* buffer, int count,
                   MPI_Datatype type, int root);
p2p::Request reduce(const coll::Call& call, const Network& network, const void* sendbuf,
                    void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root);
p2p::Request allreduce(const coll::Call& call, const Network& network, const void* sendbuf,
                       void* recvbuf, int count, MPI_Datatype type, MPI_Op op);
p2p::Request barrier(const coll::Call& call, const Network& network);
p2p::Request gather(const coll::Call& call, const Network& network, const void* sendbuf,
                    int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root);
p2p::Request scatter(const coll::Call& call, const Network& network, const void* sendbuf,
                     int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root);
p2p::Request allgather(const coll::Call& call, const Network& network, const void* sendbuf,
                       int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype);
p2p::Request alltoall(const coll::Call& call, const Network& network, const void* sendbuf,
                      int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype);
p2p::Request scan(const coll::Call& call, const Network& network, const void* sendbuf,
                  void* recvbuf, int count, MPI_Datatype type, MPI_Op op);
p2p::Request exscan(const coll::Call& call, const Network& network, const void* sendbuf,
                    void* recvbuf, int count, MPI_Datatype type, MPI_Op op);

}  // namespace scomm::topo
