#include "scomm/capi/kept_types.hpp"

#include <unordered_map>

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
  types_.reserve(arguments.size());
  std::unordered_map<MPI_Datatype, MPI_Datatype> kept_as;  // each type asked about once
  for (const TypeArgument& argument : arguments) {
    if (!coll::kDuplicatesTypes || !argument.used) {
      types_.push_back(argument.type);
      continue;
    }
    const auto [kept, fresh] = kept_as.try_emplace(argument.type, argument.type);
    if (fresh && is_derived(argument.type)) kept->second = duplicates_.duplicate(argument.type);
    types_.push_back(kept->second);
  }
}

}  // namespace scomm::capi
