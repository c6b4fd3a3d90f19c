#include <vector>

#include "scomm/coll/neighbor_args.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/w_args.hpp"

namespace scomm::coll {

// Out-neighbor i's block: sendcounts[i] elements of sendtypes[i] at sdispls[i] bytes into the
// send buffer; in-neighbor i's likewise in the receive buffer. Each block is a view of the
// schedule, which depends on the counts alone (the cache's key).
p2p::Request neighbor_alltoallw(const Call& call, const void* sendbuf, const int* sendcounts,
                                const MPI_Aint* sdispls, const MPI_Datatype* sendtypes,
                                void* recvbuf, const int* recvcounts, const MPI_Aint* rdispls,
                                const MPI_Datatype* recvtypes) {
  const NeighborCall neighbors(call, Operation::kNeighborAlltoallw);
  const ExchangeArgs args = neighbors.args(sendbuf, MPI_BYTE, recvbuf, MPI_BYTE);
  const group::Degrees degrees = neighbors.degrees();
  std::vector<View> views;
  views.reserve(static_cast<std::size_t>(degrees.out + degrees.in));
  const std::span<const int> send =
      add_views(sendbuf, sendcounts, sdispls, sendtypes, degrees.out, views);
  const std::span<const int> recv =
      add_views(recvbuf, recvcounts, rdispls, recvtypes, degrees.in, views);
  if (neighbors.native())
    return launch_native(call, MPI_Ineighbor_alltoallw, MPI_Neighbor_alltoallw, sendbuf, sendcounts,
                         sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
  Binding binding = args.binding();
  binding.views = views;
  return neighbors.launch(0, 0, {send, recv}, ViewLayout{0, send}, ViewLayout{send.size(), recv},
                          binding);
}

}  // namespace scomm::coll
