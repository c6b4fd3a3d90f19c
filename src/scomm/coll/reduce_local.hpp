// MPI_Reduce_local for the predefined arithmetic operations on the common predefined types, as
// plain loops: a small collective's reduction then costs a handful of instructions instead of
// MPI's argument checks and operation dispatch (some 180 in Open MPI 4.1 for one double), and a
// long one runs a loop the compiler vectorizes. Every other operation and type goes to MPI.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace scomm::coll {

// inout[i] = in[i] op inout[i] for `count` elements of `type` (MPI_Reduce_local's order), with
// MPI_SUM, MPI_PROD, MPI_MIN or MPI_MAX on int, unsigned, long, unsigned long, long long,
// unsigned long long, the fixed-width 32- and 64-bit integers, float or double (integers wrap
// around on overflow; unsigned ones compare over their whole range, where Debian's Open MPI
// 4.1.4 compares MPI_UNSIGNED_LONG as signed above 2^63). False, having done nothing, for any
// other operation or type.
bool reduce_predefined(MPI_Op op, MPI_Datatype type, const void* in, void* inout,
                       std::int64_t count) noexcept;

}  // namespace scomm::coll
