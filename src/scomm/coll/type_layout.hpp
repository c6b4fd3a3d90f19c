// What the executor needs to know of a datatype, asked of MPI once per call: where element i
// lies (extent), how much memory a run of elements spans (true bounds), and whether copies can
// be plain memcpy.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace scomm::coll {

struct TypeLayout {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Aint extent = 0;
  MPI_Aint true_lb = 0;
  MPI_Aint true_extent = 0;
  int size = 0;
  bool plain = false;       // contiguous, no gaps, lower bound 0
  bool predefined = false;  // a predefined type: its handle always means the same layout

  static TypeLayout of(MPI_Datatype type);
  // Bytes a buffer of `count` elements spans, from its true lower bound.
  std::int64_t span(std::int64_t count) const noexcept {
    return count == 0 ? 0 : true_extent + (count - 1) * extent;
  }
};

}  // namespace scomm::coll
