#include <span>

#include "scomm/coll/data_args.hpp"
#include "scomm/coll/gatherv_linear.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// As gather, with the root's counts and displacements (significant at the root only). Not
// cached: the schedule depends on every count.
p2p::Request gatherv(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, const int* recvcounts, const int* displs, MPI_Datatype recvtype,
                     int root) {
  check_root(call, root);
  const bool at_root = call.comm.rank() == root;
  const bool in_place = at_root && sendbuf == MPI_IN_PLACE;
  const int p = call.comm.size();
  if (!in_place) check_buffer(sendbuf, sendcount, sendtype);
  if (at_root) {
    check_vector(recvbuf, recvcounts, displs, p, recvtype);
    if (!in_place) check_not_aliased(sendbuf, recvbuf, sendcount);
  }
  const Shape shape = call.shape(root);
  const Algorithm algorithm = call.selection.choose(Operation::kGatherv, 0, p);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, [&](MPI_Comm comm, MPI_Request* request) {
      return request != nullptr ? MPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                               displs, recvtype, root, comm, request)
                                : MPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                              displs, recvtype, root, comm);
    });
  const auto n = static_cast<std::size_t>(at_root ? p : 0);
  return launch(
      call,
      gatherv_linear(shape, sendcount, std::span(recvcounts, n), std::span(displs, n), in_place),
      Binding{in_place ? nullptr : sendbuf, in_place ? recvtype : sendtype,
              at_root ? recvbuf : nullptr, at_root ? recvtype : sendtype, MPI_OP_NULL});
}

}  // namespace scomm::coll
