#include "scomm/coll/bcast_binomial.hpp"
#include "scomm/coll/bcast_bytes.hpp"
#include "scomm/coll/bcast_knomial.hpp"
#include "scomm/coll/bcast_pipelined_tree.hpp"
#include "scomm/coll/bcast_scatter_allgather.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/segments.hpp"

namespace scomm::coll {
namespace {

constexpr int kKnomialRadix = 4;

bool cuts_the_buffer(Algorithm algorithm) {
  return algorithm == Algorithm::kPipelinedTree || algorithm == Algorithm::kScatterAllgather;
}

// An algorithm that cuts the buffer, on its bytes (bcast_bytes.hpp).
p2p::Request bcast_cut(const Call& call, const Shape& shape, Algorithm algorithm,
                       const BcastBytes& view) {
  return launch(
      call,
      ScheduleKey{Operation::kBcast, algorithm, shape.root, false, view.count, 0, view.packed,
                  view.bytes},
      [&] {
        return bcast_in_bytes(shape, view, [&](Schedule& schedule, Block data) {
          if (algorithm == Algorithm::kPipelinedTree)
            add_bcast_pipelined_tree(schedule, shape, data,
                                     call.selection.bcast_segment_bytes(view.bytes));
          else
            add_bcast_scatter_allgather(schedule, shape, data);
        });
      },
      view.binding);
}

}  // namespace

p2p::Request bcast(const Call& call, void* buffer, int count, MPI_Datatype type, int root) {
  check_root(call, root);
  check_buffer(buffer, count, type);
  const Shape shape = call.shape(root);
  const std::int64_t bytes = bytes_of(count, type);
  const Algorithm algorithm = call.choose(Operation::kBcast, bytes, shape.size);
  // An empty signature goes to MPI as no bytes at every member alike: Open MPI 4.1's MPI_Ibcast
  // hangs where one member names it as elements of a zero-size type and another as no elements.
  if (algorithm == Algorithm::kNative)
    return bytes == 0 ? launch_native(call, MPI_Ibcast, MPI_Bcast, buffer, 0, MPI_BYTE, root)
                      : launch_native(call, MPI_Ibcast, MPI_Bcast, buffer, count, type, root);
  if (cuts_the_buffer(algorithm))
    return bcast_cut(call, shape, algorithm,
                     bcast_bytes(buffer, count, type, call.comm.channel().base()));
  return launch(
      call, ScheduleKey{Operation::kBcast, algorithm, root, false, count},
      [&] {
        return algorithm == Algorithm::kKnomial ? bcast_knomial(shape, count, kKnomialRadix)
                                                : bcast_binomial(shape, count);
      },
      Binding{buffer, type, buffer, type, MPI_OP_NULL});
}

}  // namespace scomm::coll
