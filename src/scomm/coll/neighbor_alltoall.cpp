#include "scomm/coll/neighbor_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// Block i of the send buffer to out-neighbor i; in-neighbor i's into block i of the receive
// buffer.
p2p::Request neighbor_alltoall(const Call& call, const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, void* recvbuf, int recvcount,
                               MPI_Datatype recvtype) {
  return NeighborCall(call, Operation::kNeighborAlltoall)
      .exchange(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                RegularLayout{kInput, sendcount}, MPI_Ineighbor_alltoall, MPI_Neighbor_alltoall);
}

}  // namespace scomm::coll
