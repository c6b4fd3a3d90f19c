#include "scomm/coll/owned_types.hpp"

#include "scomm/p2p/mpi_check.hpp"

namespace scomm::coll {

TypeDuplicates::~TypeDuplicates() {
  for (MPI_Datatype& type : duplicates_)
    if (type != MPI_DATATYPE_NULL) MPI_Type_free(&type);
}

MPI_Datatype TypeDuplicates::duplicate(MPI_Datatype type) {
  // Its place first, so that the new handle is never lost.
  MPI_Datatype& copy = duplicates_.emplace_back(MPI_DATATYPE_NULL);
  p2p::check_mpi(MPI_Type_dup(type, &copy), "MPI_Type_dup");
  return copy;
}

}  // namespace scomm::coll
