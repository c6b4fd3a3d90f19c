#include <span>

#include "scomm/coll/data_args.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/scatterv_linear.hpp"

namespace scomm::coll {

// As scatter, with the root's counts and displacements (significant at the root only). Not
// cached: the schedule depends on every count.
p2p::Request scatterv(const Call& call, const void* sendbuf, const int* sendcounts,
                      const int* displs, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root) {
  check_root(call, root);
  const bool at_root = call.comm.rank() == root;
  const bool in_place = at_root && recvbuf == MPI_IN_PLACE;
  const int p = call.comm.size();
  if (!in_place) check_buffer(recvbuf, recvcount, recvtype);
  if (at_root) {
    check_not_in_place(sendbuf);
    check_vector(sendbuf, sendcounts, displs, p, sendtype);
    if (!in_place) check_not_aliased(sendbuf, recvbuf, recvcount);
  }
  const Shape shape = call.shape(root);
  const Algorithm algorithm = call.selection.choose(Operation::kScatterv, 0, p);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, [&](MPI_Comm comm, MPI_Request* request) {
      return request != nullptr ? MPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                                recvcount, recvtype, root, comm, request)
                                : MPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                               recvcount, recvtype, root, comm);
    });
  const auto n = static_cast<std::size_t>(at_root ? p : 0);
  return launch(
      call,
      scatterv_linear(shape, std::span(sendcounts, n), std::span(displs, n), recvcount, in_place),
      Binding{at_root ? sendbuf : nullptr, at_root ? sendtype : recvtype,
              in_place ? nullptr : recvbuf, in_place ? sendtype : recvtype, MPI_OP_NULL});
}

}  // namespace scomm::coll
