// Argument checks the data-movement collectives share (gather, scatter, allgather, alltoall and
// their v-forms), on top of collective.hpp's: MPI_IN_PLACE only where MPI allows it, and count and
// displacement arrays.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "scomm/coll/collective.hpp"
#include "scomm/coll/executor.hpp"

namespace scomm::coll {

[[noreturn]] void throw_null_vector(const int* counts);
[[noreturn]] void throw_null_types();

// Error(kArg) for a null counts or displacements array, then check_data for each rank's block
// (`size` of them) of `buffer`.
inline void check_vector(const void* buffer, const int* counts, const int* displs, int size,
                         MPI_Datatype type) {
  if (counts == nullptr || displs == nullptr) [[unlikely]]
    throw_null_vector(counts);
  for (int r = 0; r < size; ++r) check_data(buffer, counts[r], type);
}

// Which side of a rooted collective holds every rank's block at the root.
enum class Rooted : bool { kGather, kScatter };

// The arguments of gather, scatter and their v-forms at one rank. The rank's own block is the
// send side of a gather and the receive side of a scatter; the other side is the root's and
// means nothing elsewhere. The root alone may pass MPI_IN_PLACE as its own block, which then
// stays in the root's buffer. The constructor checks the root, the own block, and at the root
// that the root's buffer is not MPI_IN_PLACE nor the own block; the caller checks the root's
// counts (one count or a vector).
class RootedArgs {
 public:
  RootedArgs(const Call& call, int root, Rooted direction, const void* sendbuf, int sendcount,
             MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype);
  bool at_root() const noexcept { return at_root_; }
  bool in_place() const noexcept { return in_place_; }
  // The buffers the schedule moves data between: an absent side (in place, or the root's side
  // elsewhere) is null and takes the other side's type.
  Binding binding() const noexcept;

 private:
  Rooted direction_;
  bool at_root_;
  bool in_place_;
  const void* sendbuf_;
  MPI_Datatype sendtype_;
  void* recvbuf_;
  MPI_Datatype recvtype_;
};

// The arguments of allgather, alltoall and their v-forms: MPI_IN_PLACE as the send buffer means
// the data to send is in the receive buffer. The constructor checks that the receive buffer is
// not MPI_IN_PLACE and not the send buffer (`send_count` elements); the caller checks counts.
class ExchangeArgs {
 public:
  ExchangeArgs(const void* sendbuf, std::int64_t send_count, MPI_Datatype sendtype, void* recvbuf,
               MPI_Datatype recvtype);
  // One block of each side per rank (allgather, alltoall): checks the send block too (unless in
  // place) and the receive block.
  ExchangeArgs(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype);
  bool in_place() const noexcept { return sendbuf_ == MPI_IN_PLACE; }
  Binding binding() const noexcept;

 private:
  const void* sendbuf_;
  MPI_Datatype sendtype_;
  void* recvbuf_;
  MPI_Datatype recvtype_;
};

}  // namespace scomm::coll
