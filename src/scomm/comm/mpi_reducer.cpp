#include "scomm/comm/mpi_reducer.hpp"

namespace scomm::comm {

// A reduction still in flight must complete before its buffers go away.
MpiReducer::~MpiReducer() {
  if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
}

void MpiReducer::start_max(std::span<std::int64_t> values) {
  MPI_Iallreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT64_T, MPI_MAX,
                 comm_, &request_);
}

void MpiReducer::start_and(std::span<std::uint64_t> bits) {
  MPI_Iallreduce(MPI_IN_PLACE, bits.data(), static_cast<int>(bits.size()), MPI_UINT64_T, MPI_BAND,
                 comm_, &request_);
}

// Its one user, SCOMM_Comm_from_MPI, is blocking: the reduction waits in MPI (one call, where a
// loop of tests would cost simulated time each under SMPI).
bool MpiReducer::test() {
  MPI_Wait(&request_, MPI_STATUS_IGNORE);
  return true;
}

}  // namespace scomm::comm
