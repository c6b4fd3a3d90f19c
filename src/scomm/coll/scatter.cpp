#include "scomm/coll/data_args.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/scatter_binomial.hpp"

namespace scomm::coll {

// The send arguments count only at the root (MPI): elsewhere they are neither checked nor bound,
// and the root alone may pass MPI_IN_PLACE as its receive buffer (its block stays in place).
p2p::Request scatter(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, int recvcount, MPI_Datatype recvtype, int root) {
  check_root(call, root);
  const bool at_root = call.comm.rank() == root;
  const bool in_place = at_root && recvbuf == MPI_IN_PLACE;
  if (!in_place) check_buffer(recvbuf, recvcount, recvtype);
  if (at_root) {
    check_buffer(sendbuf, sendcount, sendtype);
    if (!in_place) check_not_aliased(sendbuf, recvbuf, recvcount);
  }
  const Shape shape = call.shape(root);
  const std::int64_t bytes =
      at_root ? bytes_of(sendcount, sendtype) : bytes_of(recvcount, recvtype);
  const Algorithm algorithm = call.selection.choose(Operation::kScatter, bytes, shape.size);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, [&](MPI_Comm comm, MPI_Request* request) {
      return request != nullptr ? MPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                               recvtype, root, comm, request)
                                : MPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                              recvtype, root, comm);
    });
  return launch(
      call,
      ScheduleKey{Operation::kScatter, algorithm, root, in_place, recvcount,
                  at_root ? sendcount : 0},
      [&] { return scatter_binomial(shape, sendcount, recvcount, in_place); },
      Binding{at_root ? sendbuf : nullptr, at_root ? sendtype : recvtype,
              in_place ? nullptr : recvbuf, in_place ? sendtype : recvtype, MPI_OP_NULL});
}

}  // namespace scomm::coll
