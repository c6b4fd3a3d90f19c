#include "scomm/coll/neighbor_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// The same block to every out-neighbor; in-neighbor i's into block i of the receive buffer.
p2p::Request neighbor_allgather(const Call& call, const void* sendbuf, int sendcount,
                                MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                MPI_Datatype recvtype) {
  return NeighborCall(call, Operation::kNeighborAllgather)
      .exchange(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                SameBlock{{kInput, 0, sendcount}}, MPI_Ineighbor_allgather, MPI_Neighbor_allgather);
}

}  // namespace scomm::coll
