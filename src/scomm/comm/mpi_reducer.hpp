// Context allocation over a real MPI communicator. Blocking (SCOMM_Init's world): each reduction
// is one MPI_Allreduce, done when started; a blocking allreduce uses the MPI's tuned algorithms,
// where some implementations' nonblocking ones are naive (SimGrid SMPI's MPI_Iallreduce sends
// p^2 messages). Nonblocking (SCOMM_Comm_from_MPI): MPI_Iallreduce, completed by test(), so that
// the process's pending operations progress meanwhile. Every member must use the same mode: a
// blocking collective never matches a nonblocking one.
#pragma once

#include <mpi.h>

#include "scomm/context/reducer.hpp"

namespace scomm::comm {

class MpiReducer final : public context::Reducer {
 public:
  enum class Mode { kBlocking, kNonblocking };
  explicit MpiReducer(MPI_Comm comm, Mode mode = Mode::kBlocking) : comm_(comm), mode_(mode) {}
  MpiReducer(const MpiReducer&) = delete;
  MpiReducer& operator=(const MpiReducer&) = delete;
  ~MpiReducer() override;

  void start_max(std::span<std::int64_t> values) override;
  void start_and(std::span<std::uint64_t> bits) override;
  bool test() override;

 private:
  void reduce(void* data, int count, MPI_Datatype type, MPI_Op op);

  MPI_Comm comm_;
  Mode mode_;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace scomm::comm
