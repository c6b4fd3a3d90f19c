// What the executor needs to know of a datatype, asked of MPI once per call: where element i
// lies (extent), how much memory a run of elements spans (true bounds), and whether copies can
// be plain memcpy.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace scomm::coll {

struct TypeLayout {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Aint extent = 0;
  MPI_Aint true_lb = 0;
  MPI_Aint true_extent = 0;
  int size = 0;
  bool plain = false;       // contiguous, no gaps, lower bound 0, in pack order
  bool predefined = false;  // a predefined type: its handle always means the same layout
  bool in_order = false;    // its map in pack order (type_order.hpp), as every predefined type's

  static TypeLayout of(MPI_Datatype type);
  // MPI_BYTE's, as MPI defines it (temporaries of packed bytes): immutable, shared by every run.
  static const TypeLayout& bytes() noexcept;
  // Bytes a buffer of `count` elements spans, from its true lower bound.
  std::int64_t span(std::int64_t count) const noexcept {
    return count == 0 ? 0 : true_extent + (count - 1) * extent;
  }
};

// `address` moved by `bytes`, computed in integers: a buffer may be MPI_BOTTOM (null) with a
// type whose bounds are absolute addresses, and a temporary laid out by such a type has its base
// far outside its memory, where pointer arithmetic would leave the object (undefined behaviour).
inline std::byte* displaced(const void* address, std::int64_t bytes) noexcept {
  return reinterpret_cast<std::byte*>(reinterpret_cast<std::uintptr_t>(address) +
                                      static_cast<std::uintptr_t>(bytes));
}

// Error(kType) unless `layout`'s type is committed (predefined types are): before a
// collective's first message, as a transfer of an uncommitted type fails at its sender alone
// while its receivers wait (p2p::check_committed, on `comm`).
void check_committed(const TypeLayout& layout, MPI_Comm comm);

}  // namespace scomm::coll
