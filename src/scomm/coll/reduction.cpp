#include "scomm/coll/reduction.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "scomm/base/error.hpp"
#include "scomm/coll/reduce_scatter_pairwise.hpp"
#include "scomm/coll/reduce_scatter_recursive_halving.hpp"

namespace scomm::coll {

void check_reduction(const void* sendbuf, std::int64_t send_count, const void* recvbuf,
                     std::int64_t recv_count, MPI_Datatype type, MPI_Op op) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place) {
    check_data(sendbuf, send_count, type);
    check_not_aliased(sendbuf, recvbuf, std::max(send_count, recv_count));
  }
  check_buffer(recvbuf, in_place ? send_count : recv_count, type);
  check_op(op, type);
}

p2p::Request prefix_reduction(const Call& call, Operation operation, const void* sendbuf,
                              void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                              const PrefixAlgorithms& algorithms, const NativeCall& native) {
  check_reduction(sendbuf, count, recvbuf, count, type, op);
  const Shape shape = call.shape();
  // Every scan algorithm keeps rank order: the choice needs no MPI_Op_commutative.
  const Algorithm algorithm = call.choose(operation, bytes_of(count, type), shape.size);
  if (algorithm == Algorithm::kNative) return launch_native(call, native);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const bool chain = algorithm == Algorithm::kLinear;
  const std::int64_t segment =
      chain ? call.selection.scan_chain_segment(bytes_of(count, type), count, shape.size) : 0;
  // The chain spares a pass over the vector where the operation commutes (scan_linear.hpp).
  const bool commutative = chain && !in_place && is_commutative(op);
  const auto build = [&] {
    if (chain) return algorithms.linear(shape, count, in_place, segment, commutative);
    return (algorithm == Algorithm::kBinaryTree
                ? algorithms.binary_tree
                : algorithms.recursive_doubling)(shape, count, in_place);
  };
  return launch(call,
                ScheduleKey{.operation = operation,
                            .algorithm = algorithm,
                            .in_place = in_place,
                            .count = count,
                            .extra = segment,
                            .commutative = commutative},
                build, reduction_binding(sendbuf, recvbuf, type, op));
}

p2p::Request reduce_scatter_counts(const Call& call, Operation operation, const void* sendbuf,
                                   void* recvbuf, std::span<const std::int64_t> counts,
                                   std::span<const int> user_counts, MPI_Datatype type, MPI_Op op,
                                   const NativeCall& native) {
  for (const std::int64_t count : counts)
    if (count < 0) throw Error(ErrorClass::kCount, "negative count " + std::to_string(count));
  const std::int64_t total = std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
  const Shape shape = call.shape();
  check_reduction(sendbuf, total, recvbuf, counts[static_cast<std::size_t>(shape.rank)], type, op);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  // By the mean block, as the selection's other thresholds go by a rank's block.
  const Algorithm algorithm =
      call.choose(operation, bytes_of(total, type) / shape.size, shape.size, is_commutative(op));
  if (algorithm == Algorithm::kNative) return launch_native(call, native);
  const auto build = [&] {
    return algorithm == Algorithm::kPairwise ? reduce_scatter_pairwise(shape, counts, in_place)
                                             : reduce_scatter_recursive_halving(shape, counts);
  };
  const Binding binding = reduction_binding(sendbuf, recvbuf, type, op);
  return launch(call, ScheduleKey{operation, algorithm, 0, in_place, counts.front(), 0},
                {user_counts}, build, binding);
}

}  // namespace scomm::coll
