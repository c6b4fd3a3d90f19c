// The MPI side of the library context: the base communicators that carry every scomm message,
// the tag layout read from MPI_TAG_UB, and the context ids this process holds. Created by
// SCOMM_Init after MPI_Init, destroyed by SCOMM_Finalize before MPI_Finalize.
#pragma once

#include <mpi.h>

#include <vector>

#include "scomm/context/context_pool.hpp"
#include "scomm/context/tag_layout.hpp"

namespace scomm::comm {

class Runtime {
 public:
  // Duplicates `world` `base_count` times; each duplicate carries 2^prefix_bits contexts.
  // Throws Error(kNotSupported) when MPI_TAG_UB is too small, Error(kArg) for base_count < 1.
  Runtime(MPI_Comm world, int base_count);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const context::TagLayout& layout() const noexcept { return layout_; }
  MPI_Comm base(int index) const noexcept { return bases_[static_cast<std::size_t>(index)]; }
  int base_count() const noexcept { return static_cast<int>(bases_.size()); }
  context::ContextPool& contexts() noexcept { return contexts_; }

  // SCOMM_BASE_COMMS from the environment, or 1.
  static int base_count_from_environment();

 private:
  context::TagLayout layout_;
  std::vector<MPI_Comm> bases_;
  context::ContextPool contexts_;
};

}  // namespace scomm::comm
