#include "scomm/capi/kept_types.hpp"

#include "scomm/coll/owned_types.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace scomm::capi {

namespace {

bool is_derived(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return false;
  int integers = 0, addresses = 0, types = 0, combiner = MPI_COMBINER_NAMED;
  p2p::check_mpi(MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner),
                 "MPI_Type_get_envelope");
  return combiner != MPI_COMBINER_NAMED;
}

}  // namespace

KeptTypes::KeptTypes(const TypeArguments& arguments) {
  try {
    keep(arguments);
  } catch (...) {
    free_duplicates();
    throw;
  }
}

void KeptTypes::keep(const TypeArguments& arguments) {
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const TypeArgument& argument = arguments[i];
    types_[i] = argument.type;
    if (!coll::kDuplicatesTypes || !argument.used || !is_derived(argument.type)) continue;
    if (i > 0 && argument.type == arguments[i - 1].type && arguments[i - 1].used) {
      types_[i] = types_[i - 1];  // one duplicate for a type named twice
      continue;
    }
    // Its place first, so that the new handle is never lost.
    MPI_Datatype& copy = duplicates_.emplace_back(MPI_DATATYPE_NULL);
    p2p::check_mpi(MPI_Type_dup(argument.type, &copy), "MPI_Type_dup");
    types_[i] = copy;
  }
}

KeptTypes::~KeptTypes() {
  free_duplicates();
}

void KeptTypes::free_duplicates() noexcept {
  for (MPI_Datatype& type : duplicates_)
    if (type != MPI_DATATYPE_NULL) MPI_Type_free(&type);
}

}  // namespace scomm::capi
