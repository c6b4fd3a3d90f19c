#include "scomm/coll/data_args.hpp"
#include "scomm/coll/gather_binomial.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// The receive arguments count only at the root (MPI): elsewhere they are neither checked nor
// bound, and the root alone may pass MPI_IN_PLACE (its block is then in its receive buffer).
p2p::Request gather(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, int recvcount, MPI_Datatype recvtype, int root) {
  check_root(call, root);
  const bool at_root = call.comm.rank() == root;
  const bool in_place = at_root && sendbuf == MPI_IN_PLACE;
  if (!in_place) check_buffer(sendbuf, sendcount, sendtype);
  if (at_root) {
    check_data(recvbuf, recvcount, recvtype);
    if (!in_place) check_not_aliased(sendbuf, recvbuf, recvcount);
  }
  const Shape shape = call.shape(root);
  const std::int64_t bytes =
      at_root ? bytes_of(recvcount, recvtype) : bytes_of(sendcount, sendtype);
  const Algorithm algorithm = call.selection.choose(Operation::kGather, bytes, shape.size);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, [&](MPI_Comm comm, MPI_Request* request) {
      return request != nullptr ? MPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                              recvtype, root, comm, request)
                                : MPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                             recvtype, root, comm);
    });
  return launch(
      call,
      ScheduleKey{Operation::kGather, algorithm, root, in_place, sendcount,
                  at_root ? recvcount : 0},
      [&] { return gather_binomial(shape, sendcount, recvcount, in_place); },
      Binding{in_place ? nullptr : sendbuf, in_place ? recvtype : sendtype,
              at_root ? recvbuf : nullptr, at_root ? recvtype : sendtype, MPI_OP_NULL});
}

}  // namespace scomm::coll
