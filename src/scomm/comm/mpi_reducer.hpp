// Context allocation over a real MPI communicator (SCOMM_Comm_from_MPI): the reductions are
// MPI's own allreduce, started nonblocking and completed in test().
#pragma once

#include <mpi.h>

#include "scomm/context/reducer.hpp"

namespace scomm::comm {

class MpiReducer final : public context::Reducer {
 public:
  explicit MpiReducer(MPI_Comm comm) : comm_(comm) {}
  MpiReducer(const MpiReducer&) = delete;
  MpiReducer& operator=(const MpiReducer&) = delete;
  ~MpiReducer() override;

  void start_max(std::span<std::int64_t> values) override;
  void start_and(std::span<std::uint64_t> bits) override;
  bool test() override;

 private:
  MPI_Comm comm_;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace scomm::comm
