// Temporaries of a type whose elements overlap. MPI lets the elements of a send buffer overlap
// (a type whose extent is below its true extent: a vector of 3 ints 2 apart, resized to one int,
// makes element k ints k, k+2 and k+4). A temporary laid out by such a type that holds elements
// from several ranks would let each overwrite its neighbours, so it is laid out by the spread
// type instead: the same type map (and type signature) with its extent stretched to its true
// extent (MPI_Type_create_resized), elements side by side. A type whose entries are out of pack
// order (type_order.hpp) may name one place twice (MPI allows that in send buffers too), and its
// temporaries hold each element's packed bytes instead (MPI_Type_contiguous of MPI_BYTE). So do
// those of a sparse type, whose elements' bytes lie far apart (a type resized to a large extent,
// a vector with a wide stride): laid out by the type, a temporary of a few bytes a rank took
// hundreds of MiB, or failed for memory where MPI's own collective succeeds (round six of the
// hostile probes).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>

#include "scomm/coll/type_layout.hpp"

namespace scomm::coll {

// Whether `layout`'s elements take far more room than their bytes: gaps of more than 4 KiB that
// are also more than 8 times the bytes.
inline bool is_sparse(const TypeLayout& layout) noexcept {
  constexpr std::int64_t kGapBytes = 4096, kGapRatio = 8;
  const std::int64_t room = std::max<std::int64_t>(layout.extent, layout.true_extent);
  const std::int64_t gaps = room - layout.size;
  return gaps > kGapBytes && gaps > kGapRatio * static_cast<std::int64_t>(layout.size);
}

// Whether temporaries of `layout`'s type take its spread type: its elements overlap one another,
// its entries are out of pack order, or it is sparse.
inline bool needs_spread(const TypeLayout& layout) noexcept {
  return layout.true_extent > layout.extent || !layout.in_order || is_sparse(layout);
}

class SpreadType {
 public:
  SpreadType() = default;
  SpreadType(const SpreadType&) = delete;
  SpreadType& operator=(const SpreadType&) = delete;
  ~SpreadType();

  // The layout of `layout`'s type spread, made anew on every call: a derived type's handle may
  // name another type by the next call.
  const TypeLayout& spread(const TypeLayout& layout);
  const TypeLayout& layout() const noexcept { return layout_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
  TypeLayout layout_;
};

}  // namespace scomm::coll
