// The datatypes a collective's run owns, made only where needed (a run keeps a pointer): the
// spread types of its temporaries (spread_type.hpp), and the duplicates of the caller's derived
// types that a nonblocking run moves its data by, as MPI lets the caller free a type while an
// operation that uses it is pending.
#pragma once

#include <mpi.h>

#include <array>
#include <vector>

#include "scomm/coll/spread_type.hpp"
#include "scomm/coll/type_layout.hpp"

namespace scomm::coll {

// Whether nonblocking runs duplicate the caller's derived types. Not on SimGrid SMPI 3.32, whose
// MPI_Type_dup of a vector type makes one that MPI_Pack crashes on or packs wrongly: there a
// type freed while a nonblocking collective uses it is not covered.
#if defined(SMPI_H)
inline constexpr bool kDuplicatesTypes = false;
#else
inline constexpr bool kDuplicatesTypes = true;
#endif

// Duplicates of datatypes, freed with their owner: what a run or a persistent request moves its
// data by once the caller may have freed the originals.
class TypeDuplicates {
 public:
  TypeDuplicates() = default;
  TypeDuplicates(const TypeDuplicates&) = delete;
  TypeDuplicates& operator=(const TypeDuplicates&) = delete;
  ~TypeDuplicates();

  // A duplicate of `type`, which this owns.
  MPI_Datatype duplicate(MPI_Datatype type);

 private:
  std::vector<MPI_Datatype> duplicates_;
};

class OwnedTypes {
 public:
  OwnedTypes() = default;
  OwnedTypes(const OwnedTypes&) = delete;
  OwnedTypes& operator=(const OwnedTypes&) = delete;

  // Makes the spread type of the send (0) or receive (1) side's temporaries from `layout`.
  void spread(int side, const TypeLayout& layout) {
    spread_[static_cast<std::size_t>(side)].spread(layout);
  }
  // The layout of the spread type spread(side) made last.
  const TypeLayout& spread_layout(int side) const {
    return spread_[static_cast<std::size_t>(side)].layout();
  }
  // `layout` (of a derived type) now names a duplicate of its type, which this owns.
  void duplicate(TypeLayout& layout) { layout.type = duplicates_.duplicate(layout.type); }

 private:
  std::array<SpreadType, 2> spread_;
  TypeDuplicates duplicates_;
};

}  // namespace scomm::coll
