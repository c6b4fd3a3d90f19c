// Which datatypes each of MPI's predefined reduction operations is defined on (MPI 4.1, section
// 6.9.2). The base MPI checks this only when it reduces, and then through the error handler of
// MPI_COMM_WORLD (Open MPI 4.1: fatal by default) or an assertion (MPICH 4.0's MPI_LAND on
// doubles), and on one rank only where others see no reduction: scomm checks it at every member
// before anything is sent, as an MPI-style error.
#pragma once

#include <mpi.h>

namespace scomm::coll {

// The position of `op` among MPI's predefined operations (MPI_SUM, MPI_MAX, ... MPI_NO_OP: the
// same at every process); -1 for any other (MPI_OP_NULL and user-defined operations).
int predefined_op_index(MPI_Op op) noexcept;

// Whether `op` may reduce elements of `type`: a user-defined operation any type, a predefined one
// the predefined types of its classes (MPI_CHAR among the C integers, as Open MPI and MPICH
// take it), no derived type, and MPI_REPLACE and MPI_NO_OP none (they are for one-sided
// accumulates).
bool op_defined_on(MPI_Op op, MPI_Datatype type) noexcept;

// Error(kOp) naming the operation and the datatype, for a pair op_defined_on refuses.
[[noreturn]] void throw_undefined_op(MPI_Op op, MPI_Datatype type);

}  // namespace scomm::coll
