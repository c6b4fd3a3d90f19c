#include "scomm/comm/mpi_reducer.hpp"

#include "scomm/p2p/mpi_check.hpp"

namespace scomm::comm {

// A reduction still in flight must complete before its buffers go away.
MpiReducer::~MpiReducer() {
  if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
}

void MpiReducer::start_max(std::span<std::int64_t> values) {
  reduce(values.data(), static_cast<int>(values.size()), MPI_INT64_T, MPI_MAX);
}

void MpiReducer::start_and(std::span<std::uint64_t> bits) {
  reduce(bits.data(), static_cast<int>(bits.size()), MPI_UINT64_T, MPI_BAND);
}

void MpiReducer::reduce(void* data, int count, MPI_Datatype type, MPI_Op op) {
  if (mode_ == Mode::kBlocking)
    p2p::check_mpi(MPI_Allreduce(MPI_IN_PLACE, data, count, type, op, comm_), "MPI_Allreduce");
  else
    p2p::check_mpi(MPI_Iallreduce(MPI_IN_PLACE, data, count, type, op, comm_, &request_),
                   "MPI_Iallreduce");
}

bool MpiReducer::test() {
  if (request_ == MPI_REQUEST_NULL) return true;
  int done = 0;
  p2p::check_mpi(MPI_Test(&request_, &done, MPI_STATUS_IGNORE), "MPI_Test");
  return done != 0;
}

}  // namespace scomm::comm
