#include "scomm/coll/owned_types.hpp"

#include "scomm/p2p/mpi_check.hpp"

namespace scomm::coll {

OwnedTypes::~OwnedTypes() {
  for (MPI_Datatype& type : duplicates_) MPI_Type_free(&type);
}

void OwnedTypes::duplicate(TypeLayout& layout) {
  duplicates_.reserve(duplicates_.size() + 1);  // so that the new handle is never lost
  MPI_Datatype copy = MPI_DATATYPE_NULL;
  p2p::check_mpi(MPI_Type_dup(layout.type, &copy), "MPI_Type_dup");
  duplicates_.push_back(copy);
  layout.type = copy;
}

}  // namespace scomm::coll
