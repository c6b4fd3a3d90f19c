// MPI_Reduce_local for the predefined arithmetic operations on the common predefined types, as
// plain loops: a small collective's reduction then costs a handful of instructions instead of
// MPI's argument checks and operation dispatch (some 180 in Open MPI 4.1 for one double). Long
// vectors, every other operation and every other type go to MPI, whose loops are built for the
// machine's widest vectors (Open MPI's AVX-512 sum of doubles: 0.026 ns/B against 0.031 for
// this portable build's, in cache).
#pragma once

#include <mpi.h>

#include <cstdint>

namespace scomm::coll {

// inout[i] = in[i] op inout[i] for `count` elements of `type` (MPI_Reduce_local's order), with
// MPI_SUM, MPI_PROD, MPI_MIN or MPI_MAX on int, unsigned, long, unsigned long, long long,
// unsigned long long, the fixed-width 32- and 64-bit integers, float or double (integers wrap
// around on overflow; unsigned ones compare over their whole range, where Debian's Open MPI
// 4.1.4 compares MPI_UNSIGNED_LONG as signed above 2^63, so its min and max are always done
// here). False, having done nothing, for any other operation or type, and for vectors of more
// than kReduceOwnLoopMaxBytes.
constexpr std::int64_t kReduceOwnLoopMaxBytes = 8 * 1024;  // MPI's dispatch outweighs its speed
bool reduce_predefined(MPI_Op op, MPI_Datatype type, const void* in, void* inout,
                       std::int64_t count) noexcept;

}  // namespace scomm::coll
