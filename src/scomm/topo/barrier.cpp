#include "scomm/topo/barrier_multilevel.hpp"
#include "scomm/topo/operations.hpp"

namespace scomm::topo {

p2p::Request barrier(const coll::Call& call, const Network& network) {
  return coll::launch(
      call,
      coll::ScheduleKey{coll::Operation::kBarrier, coll::Algorithm::kMultilevel, 0, false, 0, 0},
      [&] {
        const Network& chosen = network.for_message(0);
        return barrier_multilevel(chosen.levels(), chosen.costs(), call.shape());
      },
      coll::Binding{nullptr, MPI_BYTE, nullptr, MPI_BYTE, MPI_OP_NULL});
}

}  // namespace scomm::topo
