// Turns a failed base MPI call into scomm::Error with the MPI library's own message. The base
// communicators return errors (MPI_ERRORS_RETURN) so that scomm can report them through the
// scomm communicator's error handler.
#pragma once

#include <mpi.h>

#include <string>

#include "scomm/base/error.hpp"

namespace scomm::p2p {

inline ErrorClass error_class_of_mpi(int code) noexcept {
  int mpi_class = MPI_ERR_OTHER;
  MPI_Error_class(code, &mpi_class);
  if (mpi_class == MPI_ERR_TRUNCATE) return ErrorClass::kTruncate;
  if (mpi_class == MPI_ERR_TYPE) return ErrorClass::kType;
  if (mpi_class == MPI_ERR_COUNT) return ErrorClass::kCount;
  if (mpi_class == MPI_ERR_BUFFER) return ErrorClass::kBuffer;
  return ErrorClass::kIntern;
}

inline void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(error_class_of_mpi(code), std::string(call) + ": " + std::string(text, length));
}

}  // namespace scomm::p2p
