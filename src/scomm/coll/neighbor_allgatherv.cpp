#include "scomm/coll/neighbor_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// The same block to every out-neighbor; in-neighbor i's into the receive buffer at displs[i],
// recvcounts[i] elements. The counts and displacements are part of the cache's key.
p2p::Request neighbor_allgatherv(const Call& call, const void* sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                                 const int* displs, MPI_Datatype recvtype) {
  const NeighborCall neighbors(call, Operation::kNeighborAllgatherv);
  const ExchangeArgs args = neighbors.args(sendbuf, sendtype, recvbuf, recvtype);
  check_side(sendbuf, sendcount, sendtype, neighbors.degrees().out);
  const NeighborVector recv =
      checked_vector(recvbuf, recvcounts, displs, neighbors.degrees().in, recvtype);
  if (neighbors.native())
    return launch_native(call, MPI_Ineighbor_allgatherv, MPI_Neighbor_allgatherv, sendbuf,
                         sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
  return neighbors.launch(sendcount, 0, {recv.counts, recv.displs},
                          SameBlock{{kInput, 0, sendcount}},
                          VectorLayout{kOutput, recv.counts, recv.displs}, args.binding());
}

}  // namespace scomm::coll
