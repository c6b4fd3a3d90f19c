#include "scomm/coll/allreduce_recursive_doubling.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {
namespace {

Schedule build_allreduce(Algorithm algorithm, const Shape& shape, std::int64_t count,
                         bool in_place) {
  switch (algorithm) {
    default:
      return allreduce_recursive_doubling(shape, count, in_place);
  }
}

}  // namespace

p2p::Request allreduce(const Call& call, const void* sendbuf, void* recvbuf, int count,
                       MPI_Datatype type, MPI_Op op) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place) {
    check_data(sendbuf, count, type);
    check_not_aliased(sendbuf, recvbuf, count);
  }
  check_data(recvbuf, count, type);
  check_op(op);
  const Shape shape = call.shape();
  const Algorithm algorithm = call.selection.choose(Operation::kAllreduce, bytes_of(count, type),
                                                    shape.size, is_commutative(op));
  if (algorithm == Algorithm::kNative)
    return launch_native(call, [&](MPI_Comm comm, MPI_Request* request) {
      return request != nullptr ? MPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request)
                                : MPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
    });
  return launch(
      call, ScheduleKey{Operation::kAllreduce, algorithm, 0, in_place, count, 0},
      [&] { return build_allreduce(algorithm, shape, count, in_place); },
      Binding{in_place ? recvbuf : sendbuf, type, recvbuf, type, op});
}

}  // namespace scomm::coll
