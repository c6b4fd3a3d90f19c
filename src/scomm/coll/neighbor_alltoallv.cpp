#include "scomm/coll/neighbor_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// The send buffer's block at sdispls[i] (sendcounts[i] elements) to out-neighbor i; in-neighbor
// i's into the receive buffer at rdispls[i]. The vectors are part of the cache's key.
p2p::Request neighbor_alltoallv(const Call& call, const void* sendbuf, const int* sendcounts,
                                const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
                                const int* recvcounts, const int* rdispls, MPI_Datatype recvtype) {
  const group::VirtualTopology& topology = topology_of(call);
  const group::Degrees degrees = group::degrees_of(topology);
  const ExchangeArgs args = neighbor_args(sendbuf, sendtype, recvbuf, recvtype);
  const NeighborVector send = checked_vector(sendbuf, sendcounts, sdispls, degrees.out, sendtype);
  const NeighborVector recv = checked_vector(recvbuf, recvcounts, rdispls, degrees.in, recvtype);
  const Algorithm algorithm = alltoall_algorithm(call, Operation::kNeighborAlltoallv, topology);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Ineighbor_alltoallv, MPI_Neighbor_alltoallv, sendbuf, sendcounts,
                         sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype);
  return launch(
      call, ScheduleKey{Operation::kNeighborAlltoallv, algorithm, 0, false, 0, 0},
      {send.counts, send.displs, recv.counts, recv.displs},
      [&] {
        return neighbor_exchange(topology, call.comm.rank(),
                                 VectorLayout{kInput, send.counts, send.displs},
                                 VectorLayout{kOutput, recv.counts, recv.displs});
      },
      args.binding());
}

}  // namespace scomm::coll
