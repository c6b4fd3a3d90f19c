// An MPI_Testall that returns flag 0 may still have completed and freed some of its requests,
// setting their handles to MPI_REQUEST_NULL, where MPI-3.1 (3.7.5) modifies no request then:
// SimGrid SMPI 3.32's frees every request it finds complete; MPICH 4.0's, once one has failed,
// frees the failed ones and returns MPI_ERR_IN_STATUS, the others left pending
// (MPI_ERR_PENDING). scomm tests copies of its requests' base handles (one MPI_Testall over
// many), so such a request keeps here the status MPI gave it, its base request being gone.
// Elsewhere this holds nothing and costs nothing.
#pragma once

#include <mpi.h>

#include <optional>

#if defined(SMPI_H) || defined(MPICH)
#define SCOMM_EARLY_COMPLETIONS 1
#endif

namespace scomm::p2p {

class EarlyCompletion {
 public:
#if defined(SCOMM_EARLY_COMPLETIONS)
  // MPI completed and freed `base`: its handle is dropped and its status kept.
  void keep(MPI_Request& base, const MPI_Status& mpi) noexcept {
    base = MPI_REQUEST_NULL;
    status_ = mpi;
  }
  // The kept status, if any.
  const MPI_Status* kept() const noexcept {
    return status_ ? &*status_ : nullptr;
  }

 private:
  std::optional<MPI_Status> status_;
#else
  static constexpr const MPI_Status* kept() noexcept {
    return nullptr;
  }
#endif
};

}  // namespace scomm::p2p
