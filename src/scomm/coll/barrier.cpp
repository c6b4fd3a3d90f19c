#include "scomm/coll/barrier_dissemination.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

p2p::Request barrier(const Call& call) {
  return launch(call, barrier_dissemination(call.shape()),
                Binding{nullptr, MPI_BYTE, nullptr, MPI_BYTE, MPI_OP_NULL});
}

}  // namespace scomm::coll
