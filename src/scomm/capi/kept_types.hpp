// The datatypes a persistent operation's starts use. MPI lets the caller free a derived type once
// the _init has returned, as a request keeps what it uses: the request keeps a duplicate of each
// derived type the call names (named types need none). Not a reduction's: its user-defined
// operation must be given the caller's type (MPI-4.1 6.9.5), so a reduction's type must live
// until its request is freed (docs/DESIGN.md, "Errors").
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <vector>

namespace scomm::capi {

// A datatype argument, and whether this rank's call uses it (MPI ignores a gather's receive type
// away from its root, a send type given with MPI_IN_PLACE...).
struct TypeArgument {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  bool used = false;
};
using TypeArguments = std::array<TypeArgument, 2>;

class KeptTypes {
 public:
  // Call only with types the call has validated: an unused argument is kept as it is.
  explicit KeptTypes(const TypeArguments& arguments);
  ~KeptTypes();
  KeptTypes(const KeptTypes&) = delete;
  KeptTypes& operator=(const KeptTypes&) = delete;

  // The arguments' types in their order, a duplicate in place of each used derived type.
  MPI_Datatype operator[](std::size_t argument) const noexcept { return types_[argument]; }

 private:
  void keep(const TypeArguments& arguments);
  void free_duplicates() noexcept;

  std::array<MPI_Datatype, 2> types_{};
  std::vector<MPI_Datatype> duplicates_;
};

}  // namespace scomm::capi
