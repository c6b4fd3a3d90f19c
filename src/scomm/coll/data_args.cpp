#include "scomm/coll/data_args.hpp"

#include "scomm/base/error.hpp"

namespace scomm::coll {

void check_not_in_place(const void* buffer) {
  if (buffer == MPI_IN_PLACE)
    throw Error(ErrorClass::kBuffer, "SCOMM_IN_PLACE is not allowed for this buffer here");
}

void check_buffer(const void* buffer, std::int64_t count, MPI_Datatype type) {
  check_not_in_place(buffer);
  check_data(buffer, count, type);
}

void check_vector(const void* buffer, const int* counts, const int* displs, int size,
                  MPI_Datatype type) {
  if (counts == nullptr) throw Error(ErrorClass::kArg, "null counts array");
  if (displs == nullptr) throw Error(ErrorClass::kArg, "null displacements array");
  for (int r = 0; r < size; ++r) check_data(buffer, counts[r], type);
}

}  // namespace scomm::coll
