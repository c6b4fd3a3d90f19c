// The MPI datatype of an arithmetic element type: scomm's C++ interface's mapping.
#pragma once

#include <mpi.h>

#include <type_traits>

#include "scomm.hpp"

namespace janus::detail {

template <class T>
MPI_Datatype mpi_type() {
  static_assert(std::is_arithmetic_v<T>, "janus::sort sorts arithmetic types");
  return scomm::datatype<T>();
}

}  // namespace janus::detail
