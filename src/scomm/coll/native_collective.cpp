#include "scomm/coll/native_collective.hpp"

#include "scomm/p2p/matching_engine.hpp"

namespace scomm::coll {

NativeCollective::~NativeCollective() {
  if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
}

bool NativeCollective::progress() {
  if (request_ == MPI_REQUEST_NULL) return true;
  MPI_Status status;
  return p2p::test_base(request_, status);
}

void NativeCollective::finish(p2p::MatchingEngine& engine) {
  if (engine.has_background()) {
    Operation::finish(engine);
    return;
  }
  MPI_Status status;
  if (request_ != MPI_REQUEST_NULL) p2p::wait_base(request_, status);
}

}  // namespace scomm::coll
