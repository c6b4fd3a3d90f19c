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

// Data movement: the arguments MPI calls not significant (receive ones of gather off the root,
// send ones of scatter off the root) are neither checked nor used.
p2p::Request gather(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, int recvcount, MPI_Datatype recvtype, int root);
p2p::Request gatherv(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, const int* recvcounts, const int* displs, MPI_Datatype recvtype,
                     int root);
p2p::Request scatter(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, int recvcount, MPI_Datatype recvtype, int root);
p2p::Request scatterv(const Call& call, const void* sendbuf, const int* sendcounts,
                      const int* displs, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root);
p2p::Request allgather(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                       void* recvbuf, int recvcount, MPI_Datatype recvtype);
p2p::Request allgatherv(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                        void* recvbuf, const int* recvcounts, const int* displs,
                        MPI_Datatype recvtype);
p2p::Request alltoall(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                      void* recvbuf, int recvcount, MPI_Datatype recvtype);
p2p::Request alltoallv(const Call& call, const void* sendbuf, const int* sendcounts,
                       const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
                       const int* recvcounts, const int* rdispls, MPI_Datatype recvtype);
// Rank r's blocks: counts[r] elements of types[r], displs[r] bytes into the buffer.
p2p::Request alltoallw(const Call& call, const void* sendbuf, const int* sendcounts,
                       const int* sdispls, const MPI_Datatype* sendtypes, void* recvbuf,
                       const int* recvcounts, const int* rdispls, const MPI_Datatype* recvtypes);

// The neighborhood collectives, on a communicator with a virtual topology (else Error(kTopology)):
// block i of a side belongs to neighbor i of group::neighborhood_of. MPI_IN_PLACE means nothing
// here (Error(kBuffer)).
p2p::Request neighbor_allgather(const Call& call, const void* sendbuf, int sendcount,
                                MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                MPI_Datatype recvtype);
p2p::Request neighbor_allgatherv(const Call& call, const void* sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                                 const int* displs, MPI_Datatype recvtype);
p2p::Request neighbor_alltoall(const Call& call, const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, void* recvbuf, int recvcount,
                               MPI_Datatype recvtype);
p2p::Request neighbor_alltoallv(const Call& call, const void* sendbuf, const int* sendcounts,
                                const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
                                const int* recvcounts, const int* rdispls, MPI_Datatype recvtype);
p2p::Request neighbor_alltoallw(const Call& call, const void* sendbuf, const int* sendcounts,
                                const MPI_Aint* sdispls, const MPI_Datatype* sendtypes,
                                void* recvbuf, const int* recvcounts, const MPI_Aint* rdispls,
                                const MPI_Datatype* recvtypes);

}  // namespace scomm::coll
