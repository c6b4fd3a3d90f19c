#include "scomm/coll/replay.hpp"

#include <algorithm>
#include <array>

#include "scomm/coll/op_domain.hpp"

namespace scomm::coll {

bool is_predefined_op(MPI_Op op) noexcept {
  return op == MPI_OP_NULL || predefined_op_index(op) >= 0;
}

bool is_predefined_type(MPI_Datatype type) noexcept {
  const std::array predefined{MPI_DATATYPE_NULL,
                              MPI_CHAR,
                              MPI_SIGNED_CHAR,
                              MPI_UNSIGNED_CHAR,
                              MPI_BYTE,
                              MPI_SHORT,
                              MPI_UNSIGNED_SHORT,
                              MPI_INT,
                              MPI_UNSIGNED,
                              MPI_LONG,
                              MPI_UNSIGNED_LONG,
                              MPI_LONG_LONG,
                              MPI_UNSIGNED_LONG_LONG,
                              MPI_FLOAT,
                              MPI_DOUBLE,
                              MPI_LONG_DOUBLE,
                              MPI_C_BOOL,
                              MPI_INT8_T,
                              MPI_INT16_T,
                              MPI_INT32_T,
                              MPI_INT64_T,
                              MPI_UINT8_T,
                              MPI_UINT16_T,
                              MPI_UINT32_T,
                              MPI_UINT64_T,
                              MPI_AINT,
                              MPI_COUNT,
                              MPI_C_FLOAT_COMPLEX,
                              MPI_C_DOUBLE_COMPLEX,
                              MPI_FLOAT_INT,
                              MPI_DOUBLE_INT,
                              MPI_LONG_INT,
                              MPI_2INT,
                              MPI_SHORT_INT,
                              MPI_LONG_DOUBLE_INT};
  return std::find(predefined.begin(), predefined.end(), type) != predefined.end();
}

}  // namespace scomm::coll
