#include "scomm/coll/bcast_binomial.hpp"
#include "scomm/coll/bcast_knomial.hpp"
#include "scomm/coll/bcast_pipelined_tree.hpp"
#include "scomm/coll/bcast_scatter_allgather.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/segments.hpp"

namespace scomm::coll {
namespace {

constexpr int kKnomialRadix = 4;

Schedule build_bcast(Algorithm algorithm, const Shape& shape, std::int64_t count,
                     std::int64_t segment) {
  switch (algorithm) {
    case Algorithm::kKnomial:
      return bcast_knomial(shape, count, kKnomialRadix);
    case Algorithm::kPipelinedTree:
      return bcast_pipelined_tree(shape, count, segment);
    case Algorithm::kScatterAllgather:
      return bcast_scatter_allgather(shape, count);
    default:
      return bcast_binomial(shape, count);
  }
}

}  // namespace

p2p::Request bcast(const Call& call, void* buffer, int count, MPI_Datatype type, int root) {
  check_root(call, root);
  check_data(buffer, count, type);
  const Shape shape = call.shape(root);
  const std::int64_t bytes = bytes_of(count, type);
  const Algorithm algorithm = call.selection.choose(Operation::kBcast, bytes, shape.size);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Ibcast, MPI_Bcast, buffer, count, type, root);
  const std::int64_t segment = segment_elements(bytes, count);
  return launch(
      call, ScheduleKey{Operation::kBcast, algorithm, root, false, count, segment},
      [&] { return build_bcast(algorithm, shape, count, segment); },
      Binding{buffer, type, buffer, type, MPI_OP_NULL});
}

}  // namespace scomm::coll
