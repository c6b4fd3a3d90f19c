#include <span>

#include "scomm/coll/allgatherv_ring.hpp"
#include "scomm/coll/data_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// As allgather, with every rank's count and displacement (the same arrays at every rank). Not
// cached: the schedule depends on every count.
p2p::Request allgatherv(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                        void* recvbuf, const int* recvcounts, const int* displs,
                        MPI_Datatype recvtype) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const int p = call.comm.size();
  if (!in_place) {
    check_data(sendbuf, sendcount, sendtype);
    check_not_aliased(sendbuf, recvbuf, sendcount);
  }
  check_not_in_place(recvbuf);
  check_vector(recvbuf, recvcounts, displs, p, recvtype);
  const Shape shape = call.shape();
  const Algorithm algorithm = call.selection.choose(Operation::kAllgatherv, 0, p);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, [&](MPI_Comm comm, MPI_Request* request) {
      return request != nullptr ? MPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                  displs, recvtype, comm, request)
                                : MPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                 displs, recvtype, comm);
    });
  const auto n = static_cast<std::size_t>(p);
  return launch(
      call,
      allgatherv_ring(shape, sendcount, std::span(recvcounts, n), std::span(displs, n), in_place),
      Binding{in_place ? nullptr : sendbuf, in_place ? recvtype : sendtype, recvbuf, recvtype,
              MPI_OP_NULL});
}

}  // namespace scomm::coll
