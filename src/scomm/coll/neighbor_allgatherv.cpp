#include "scomm/coll/neighbor_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// The same block to every out-neighbor; in-neighbor i's into the receive buffer at displs[i],
// recvcounts[i] elements. The counts and displacements are part of the cache's key.
p2p::Request neighbor_allgatherv(const Call& call, const void* sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                                 const int* displs, MPI_Datatype recvtype) {
  const group::VirtualTopology& topology = topology_of(call);
  const group::Degrees degrees = group::degrees_of(topology);
  const ExchangeArgs args = neighbor_args(sendbuf, sendtype, recvbuf, recvtype);
  if (degrees.out > 0) check_data(sendbuf, sendcount, sendtype);
  const NeighborVector recv = checked_vector(recvbuf, recvcounts, displs, degrees.in, recvtype);
  const Algorithm algorithm =
      call.selection.choose(Operation::kNeighborAllgatherv, 0, call.comm.size());
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Ineighbor_allgatherv, MPI_Neighbor_allgatherv, sendbuf,
                         sendcount, sendtype, recvbuf, recvcounts, displs, recvtype);
  return launch(
      call, ScheduleKey{Operation::kNeighborAllgatherv, algorithm, 0, false, sendcount, 0},
      {recv.counts, recv.displs},
      [&] {
        return neighbor_exchange(topology, call.comm.rank(), SameBlock{{kInput, 0, sendcount}},
                                 VectorLayout{kOutput, recv.counts, recv.displs});
      },
      args.binding());
}

}  // namespace scomm::coll
