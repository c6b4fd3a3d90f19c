// SimGrid SMPI 3.32's MPI_Testall completes and frees every request it finds complete even when
// others are not and it returns flag 0, setting their handles to MPI_REQUEST_NULL; MPI-3.1 (3.7.5)
// modifies no request then. scomm tests copies of its requests' base handles (one MPI_Testall
// over many), so such a request keeps here the status MPI gave it, its base request being gone.
// Elsewhere this holds nothing and costs nothing.
#pragma once

#include <mpi.h>

#include <optional>

namespace scomm::p2p {

class EarlyCompletion {
 public:
#if defined(SMPI_H)
  // SMPI completed and freed `base`: its handle is dropped and its status kept.
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
