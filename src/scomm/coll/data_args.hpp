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

[[noreturn]] void throw_own_block_truncated(std::int64_t send_bytes, std::int64_t recv_bytes);

// Error(kTruncate) where a rank's own block of a collective of one count a side is longer sent
// than it has room for received: the schedule's copy of it would truncate, and a copy that fails
// mid-way leaves the other members waiting for the rest. A shorter send block loses nothing and
// passes, as the base MPIs let it. Two comparisons where the counts and types are the same.
inline void check_own_block_fits(int sendcount, MPI_Datatype sendtype, int recvcount,
                                 MPI_Datatype recvtype) {
  if (sendcount == recvcount && sendtype == recvtype) [[likely]]
    return;
  const std::int64_t send_bytes = bytes_of(sendcount, sendtype);
  const std::int64_t recv_bytes = bytes_of(recvcount, recvtype);
  if (send_bytes > recv_bytes) throw_own_block_truncated(send_bytes, recv_bytes);
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
  // At the root of a gather or scatter of one count a side: check_data for the root's side and,
  // in check mode (where the agreement fails every member with it; else the others would wait
  // for blocks the root never sends), check_own_block_fits. Nothing elsewhere.
  void check_root_side(const Call& call, const void* buffer, int count, MPI_Datatype type) const;
  // The buffers the schedule moves data between: an absent side (in place, or the root's side
  // elsewhere) is null and takes the other side's type.
  Binding binding() const noexcept;

 private:
  Rooted direction_;
  bool at_root_;
  bool in_place_;
  int own_count_;
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
  // place), the receive block, and check_own_block_fits (unless in place).
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
