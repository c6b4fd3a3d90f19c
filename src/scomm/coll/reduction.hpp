// What the reductions' entry points share (allreduce, scan, exscan, reduce-scatter): argument
// checks, the binding of MPI_IN_PLACE and the reduce-scatter launch both forms use.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>

#include "scomm/base/function_ref.hpp"
#include "scomm/coll/collective.hpp"

namespace scomm::coll {

// Checks a reduction of `send_count` elements per rank into `recv_count` at this rank; with
// sendbuf == MPI_IN_PLACE the receive buffer holds the input (send_count elements).
void check_reduction(const void* sendbuf, std::int64_t send_count, const void* recvbuf,
                     std::int64_t recv_count, MPI_Datatype type, MPI_Op op);

// With MPI_IN_PLACE, the input is the receive buffer.
inline Binding reduction_binding(const void* sendbuf, void* recvbuf, MPI_Datatype type, MPI_Op op) {
  return {sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, type, recvbuf, type, op};
}

// Calls the base MPI's form of a collective (launch_native): nonblocking when `request` is set.
using NativeCall = base::FunctionRef<int(MPI_Comm comm, MPI_Request* request)>;

// The schedules of scan or of exscan.
struct PrefixAlgorithms {
  using Builder = Schedule (*)(const Shape&, std::int64_t count, bool in_place);
  using SegmentedBuilder = Schedule (*)(const Shape&, std::int64_t count, bool in_place,
                                        std::int64_t segment, bool commutative);
  Builder recursive_doubling, binary_tree;
  SegmentedBuilder linear;
};

// Scan and exscan: checks, selection (`operation`), and the schedule of the algorithm chosen.
p2p::Request prefix_reduction(const Call& call, Operation operation, const void* sendbuf,
                              void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                              const PrefixAlgorithms& algorithms, const NativeCall& native);

// Reduce-scatter with `counts[r]` elements for rank r (reduce_scatter_block: all equal): checks,
// selection (`operation`), launch. `user_counts` are the user's array of counts where the call
// has one (reduce_scatter), part of the cache's key.
p2p::Request reduce_scatter_counts(const Call& call, Operation operation, const void* sendbuf,
                                   void* recvbuf, std::span<const std::int64_t> counts,
                                   std::span<const int> user_counts, MPI_Datatype type, MPI_Op op,
                                   const NativeCall& native);

}  // namespace scomm::coll
