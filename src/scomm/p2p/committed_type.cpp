#include "scomm/p2p/committed_type.hpp"

#include <cstddef>

#include "scomm/base/error.hpp"

namespace scomm::p2p {

#if defined(SMPI_H)
void check_derived_committed(MPI_Datatype, MPI_Comm) {}
#else
void check_derived_committed(MPI_Datatype type, MPI_Comm comm) {
  if (type == MPI_DATATYPE_NULL) return;  // the callers' own checks name it
  int integers = 0, addresses = 0, types = 0, combiner = MPI_COMBINER_NAMED;
  MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  if (combiner == MPI_COMBINER_NAMED) return;  // predefined
  std::byte none{};
  int position = 0;
  if (MPI_Pack(&none, 0, type, &none, 0, &position, comm) != MPI_SUCCESS)
    throw Error(ErrorClass::kType, "a datatype that is not committed (or not valid)");
}
#endif

}  // namespace scomm::p2p
