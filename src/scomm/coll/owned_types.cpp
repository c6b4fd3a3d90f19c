#include "scomm/coll/owned_types.hpp"

#include "scomm/p2p/mpi_check.hpp"

namespace scomm::coll {

OwnedTypes::~OwnedTypes() {
  for (MPI_Datatype& type : duplicates_)
    if (type != MPI_DATATYPE_NULL) MPI_Type_free(&type);
}

void OwnedTypes::duplicate(TypeLayout& layout) {
  // Its place first, so that the new handle is never lost.
  MPI_Datatype& copy = duplicates_.emplace_back(MPI_DATATYPE_NULL);
  p2p::check_mpi(MPI_Type_dup(layout.type, &copy), "MPI_Type_dup");
  layout.type = copy;
}

}  // namespace scomm::coll
