#include "scomm/coll/barrier_dissemination.hpp"
#include "scomm/coll/barrier_linear.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

p2p::Request barrier(const Call& call) {
  const Algorithm algorithm = call.choose(Operation::kBarrier, 0, call.comm.size());
  if (algorithm == Algorithm::kNative) return launch_native(call, MPI_Ibarrier, MPI_Barrier);
  return launch(
      call, ScheduleKey{Operation::kBarrier, algorithm, 0, false, 0, 0},
      [&] {
        return algorithm == Algorithm::kLinear ? barrier_linear(call.shape())
                                               : barrier_dissemination(call.shape());
      },
      Binding{nullptr, MPI_BYTE, nullptr, MPI_BYTE, MPI_OP_NULL});
}

}  // namespace scomm::coll
