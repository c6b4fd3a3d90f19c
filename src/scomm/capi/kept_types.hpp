// The datatypes a persistent operation's starts use. MPI lets the caller free a derived type once
// the _init has returned, as a request keeps what it uses: the request keeps a duplicate of each
// derived type the call names (named types need none). Not a reduction's: its user-defined
// operation must be given the caller's type (MPI-4.1 6.9.5), so a reduction's type must live
// until its request is freed (docs/DESIGN.md, "Errors").
#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

#include "scomm/coll/owned_types.hpp"

namespace scomm::capi {

// A datatype argument, and whether this rank's call uses it (MPI ignores a gather's receive type
// away from its root, a send type given with MPI_IN_PLACE...).
struct TypeArgument {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  bool used = false;
};
using TypeArguments = std::vector<TypeArgument>;
// The datatypes a start is given, in the order of their arguments.
using TypeList = std::span<const MPI_Datatype>;

class KeptTypes {
 public:
  // Call only with types the call has validated: an unused argument is kept as it is.
  explicit KeptTypes(const TypeArguments& arguments);

  // The arguments' types in their order, a duplicate in place of each used derived type (one
  // for a type named several times).
  TypeList types() const noexcept { return types_; }

 private:
  std::vector<MPI_Datatype> types_;
  coll::TypeDuplicates duplicates_;  // frees them also where the constructor throws
};

}  // namespace scomm::capi
