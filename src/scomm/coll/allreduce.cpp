#include "scomm/coll/allreduce_recursive_doubling.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

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
  Schedule schedule;
  switch (call.selection.choose(Operation::kAllreduce, bytes_of(count, type), shape.size,
                                is_commutative(op))) {
    default:
      schedule = allreduce_recursive_doubling(shape, count, in_place);
  }
  return launch(call, std::move(schedule),
                Binding{in_place ? recvbuf : sendbuf, type, recvbuf, type, op});
}

}  // namespace scomm::coll
