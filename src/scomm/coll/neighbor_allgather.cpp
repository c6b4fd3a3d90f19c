#include "scomm/coll/neighbor_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// The same block to every out-neighbor; in-neighbor i's into block i of the receive buffer.
p2p::Request neighbor_allgather(const Call& call, const void* sendbuf, int sendcount,
                                MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                MPI_Datatype recvtype) {
  const group::VirtualTopology& topology = topology_of(call);
  const ExchangeArgs args = neighbor_args(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, group::degrees_of(topology));
  const Algorithm algorithm =
      call.selection.choose(Operation::kNeighborAllgather, 0, call.comm.size());
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Ineighbor_allgather, MPI_Neighbor_allgather, sendbuf, sendcount,
                         sendtype, recvbuf, recvcount, recvtype);
  return launch(
      call, ScheduleKey{Operation::kNeighborAllgather, algorithm, 0, false, sendcount, recvcount},
      [&] {
        return neighbor_exchange(topology, call.comm.rank(), SameBlock{{kInput, 0, sendcount}},
                                 RegularLayout{kOutput, recvcount});
      },
      args.binding());
}

}  // namespace scomm::coll
