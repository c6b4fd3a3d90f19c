#include "scomm/coll/neighbor_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// The send buffer's block at sdispls[i] (sendcounts[i] elements) to out-neighbor i; in-neighbor
// i's into the receive buffer at rdispls[i]. The vectors are part of the cache's key.
p2p::Request neighbor_alltoallv(const Call& call, const void* sendbuf, const int* sendcounts,
                                const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
                                const int* recvcounts, const int* rdispls, MPI_Datatype recvtype) {
  const NeighborCall neighbors(call, Operation::kNeighborAlltoallv);
  const ExchangeArgs args = neighbors.args(sendbuf, sendtype, recvbuf, recvtype);
  const NeighborVector send =
      checked_vector(sendbuf, sendcounts, sdispls, neighbors.degrees().out, sendtype);
  const NeighborVector recv =
      checked_vector(recvbuf, recvcounts, rdispls, neighbors.degrees().in, recvtype);
  if (neighbors.native())
    return launch_native(call, MPI_Ineighbor_alltoallv, MPI_Neighbor_alltoallv, sendbuf, sendcounts,
                         sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype);
  return neighbors.launch(0, 0, {send.counts, send.displs, recv.counts, recv.displs},
                          VectorLayout{kInput, send.counts, send.displs},
                          VectorLayout{kOutput, recv.counts, recv.displs}, args.binding());
}

}  // namespace scomm::coll
