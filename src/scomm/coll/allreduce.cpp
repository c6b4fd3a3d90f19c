#include "scomm/coll/allreduce_rabenseifner.hpp"
#include "scomm/coll/allreduce_recursive_doubling.hpp"
#include "scomm/coll/allreduce_ring.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/reduction.hpp"

namespace scomm::coll {
namespace {

Schedule build_allreduce(Algorithm algorithm, const Shape& shape, std::int64_t count,
                         bool in_place) {
  switch (algorithm) {
    case Algorithm::kRabenseifner:  // keeps rank order: any operation
      return allreduce_rabenseifner(shape, count, in_place);
    case Algorithm::kRing:
      return allreduce_ring(shape, count, in_place);
    default:
      return allreduce_recursive_doubling(shape, count, in_place);
  }
}

}  // namespace

p2p::Request allreduce(const Call& call, const void* sendbuf, void* recvbuf, int count,
                       MPI_Datatype type, MPI_Op op) {
  check_reduction(sendbuf, count, recvbuf, count, type, op);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const bool commutative = is_commutative(op);
  const Shape shape = call.shape();
  Algorithm algorithm =
      call.choose(Operation::kAllreduce, bytes_of(count, type), shape.size, commutative);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Iallreduce, MPI_Allreduce, sendbuf, recvbuf, count, type, op);
  // The ring's blocks wrap past the last rank, out of rank order: a non-commutative operation
  // takes recursive doubling instead, even when the ring is forced.
  if (algorithm == Algorithm::kRing && !commutative) algorithm = Algorithm::kRecursiveDoubling;
  return launch(
      call, ScheduleKey{Operation::kAllreduce, algorithm, 0, in_place, count, 0},
      [&] { return build_allreduce(algorithm, shape, count, in_place); },
      reduction_binding(sendbuf, recvbuf, type, op));
}

}  // namespace scomm::coll
