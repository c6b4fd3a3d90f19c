#include <span>

#include "scomm/coll/alltoallv_linear.hpp"
#include "scomm/coll/data_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// MPI_IN_PLACE: the blocks to send are in the receive buffer (receive counts and displacements),
// replaced by the ones received; the send arguments are ignored. The counts and displacements
// are part of the cache's key.
p2p::Request alltoallv(const Call& call, const void* sendbuf, const int* sendcounts,
                       const int* sdispls, MPI_Datatype sendtype, void* recvbuf,
                       const int* recvcounts, const int* rdispls, MPI_Datatype recvtype) {
  const ExchangeArgs args(sendbuf, 1, sendtype, recvbuf, recvtype);
  const bool in_place = args.in_place();
  const int p = call.comm.size();
  const auto n = static_cast<std::size_t>(p);
  if (!in_place) check_vector(sendbuf, sendcounts, sdispls, p, sendtype);
  check_vector(recvbuf, recvcounts, rdispls, p, recvtype);
  const Shape shape = call.shape();
  const Algorithm algorithm = call.choose(Operation::kAlltoallv, 0, p);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Ialltoallv, MPI_Alltoallv, sendbuf, sendcounts, sdispls,
                         sendtype, recvbuf, recvcounts, rdispls, recvtype);
  const VectorLayout send =
      in_place ? VectorLayout{kInput, {}, {}}
               : VectorLayout{kInput, std::span(sendcounts, n), std::span(sdispls, n)};
  const VectorLayout recv{kOutput, std::span(recvcounts, n), std::span(rdispls, n)};
  return launch(
      call, ScheduleKey{Operation::kAlltoallv, algorithm, 0, in_place, 0, 0},
      {send.counts, send.displs, recv.counts, recv.displs},
      [&] { return alltoallv_linear(shape, send, recv, in_place); }, args.binding());
}

}  // namespace scomm::coll
