#include "scomm/base/error.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/reduce_binomial.hpp"
#include "scomm/coll/reduce_pipelined_tree.hpp"
#include "scomm/coll/reduction.hpp"
#include "scomm/coll/segments.hpp"

namespace scomm::coll {

p2p::Request reduce(const Call& call, const void* sendbuf, void* recvbuf, int count,
                    MPI_Datatype type, MPI_Op op, int root) {
  check_root(call, root);
  const Shape shape = call.shape(root);
  const bool is_root = shape.rank == root;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (is_root) {
    check_reduction(sendbuf, count, recvbuf, count, type, op);
  } else {
    // The receive buffer matters at the root only; MPI_IN_PLACE is the root's alone.
    if (in_place) throw Error(ErrorClass::kBuffer, "MPI_IN_PLACE at a rank other than the root");
    check_data(sendbuf, count, type);
    check_op(op, type);
  }
  const bool commutative = is_commutative(op);
  const Algorithm algorithm =
      call.choose(Operation::kReduce, bytes_of(count, type), shape.size, commutative);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Ireduce, MPI_Reduce, sendbuf, recvbuf, count, type, op, root);
  const Binding binding = reduction_binding(sendbuf, recvbuf, type, op);
  if (algorithm == Algorithm::kPipelinedTree) {
    const std::int64_t bytes = bytes_of(count, type);
    const std::int64_t segment =
        segment_elements(bytes, count, call.selection.reduce_segment_bytes(bytes, shape.size));
    return launch(
        call, ScheduleKey{Operation::kReduce, algorithm, root, in_place, count, segment},
        [&] { return reduce_pipelined_tree(shape, count, in_place, segment); }, binding);
  }
  // Commutativity decides where the binomial tree is rooted.
  return launch(
      call,
      ScheduleKey{.operation = Operation::kReduce,
                  .algorithm = algorithm,
                  .root = root,
                  .in_place = in_place,
                  .count = count,
                  .commutative = commutative},
      [&] { return reduce_binomial(shape, count, in_place, commutative); }, binding);
}

}  // namespace scomm::coll
