#include "scomm/coll/neighbor_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// Block i of the send buffer to out-neighbor i; in-neighbor i's into block i of the receive
// buffer.
p2p::Request neighbor_alltoall(const Call& call, const void* sendbuf, int sendcount,
                               MPI_Datatype sendtype, void* recvbuf, int recvcount,
                               MPI_Datatype recvtype) {
  const group::VirtualTopology& topology = topology_of(call);
  const ExchangeArgs args = neighbor_args(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, group::degrees_of(topology));
  const Algorithm algorithm = alltoall_algorithm(call, Operation::kNeighborAlltoall, topology);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Ineighbor_alltoall, MPI_Neighbor_alltoall, sendbuf, sendcount,
                         sendtype, recvbuf, recvcount, recvtype);
  return launch(
      call, ScheduleKey{Operation::kNeighborAlltoall, algorithm, 0, false, sendcount, recvcount},
      [&] {
        return neighbor_exchange(topology, call.comm.rank(), RegularLayout{kInput, sendcount},
                                 RegularLayout{kOutput, recvcount});
      },
      args.binding());
}

}  // namespace scomm::coll
