#include <climits>
#include <vector>

#include "scomm/base/error.hpp"
#include "scomm/coll/alltoallw_linear.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/w_args.hpp"

namespace scomm::coll {
namespace {

// Each in-place block's length in bytes, as alltoallw_in_place sends it; Error(kCount) beyond
// INT_MAX (one message's limit).
std::vector<int> packed_lengths(std::span<const int> counts, const MPI_Datatype* types) {
  std::vector<int> bytes(counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r) {
    const std::int64_t length = bytes_of(counts[r], types[r]);
    if (length > INT_MAX) [[unlikely]]
      throw Error(ErrorClass::kCount,
                  "an in-place block of " + std::to_string(length) + " bytes exceeds INT_MAX");
    bytes[r] = static_cast<int>(length);
  }
  return bytes;
}

// Where the base MPI's own nonblocking all-to-all of this kind is known to be wrong.
// - On a communicator with a virtual topology, Open MPI 4.1's MPI_Ialltoallw reads as many
//   datatypes as the grid or graph has neighbors, not members
//   (ompi_coll_base_retain_datatypes_w), past the end of the arrays where it has more: it crashed
//   the random programs on a one-process periodic grid.
// - In place, MPICH 4.0's MPI_Ialltoallw delivers wrong data, or fails with a truncation, where
//   the two ends of a block describe it by different types (3 pairs of ints against 6 MPI_INT).
// - In place, Open MPI 4.1's MPI_Ialltoallw never completes at a process whose one non-empty
//   block is its own while another has none (2 processes: counts {1, 0} and {0, 0}); the random
//   programs hung on it.
// Every member has the topology, and passes MPI_IN_PLACE if one does (MPI's rule), so every
// member chooses alike.
bool native_nonblocking_is_wrong(const Call& call, [[maybe_unused]] bool in_place) {
#if defined(MPICH) || defined(OPEN_MPI)
  if (in_place) return true;
#endif
  return call.comm.topology() != nullptr;
}

// The selection's algorithm, except that a "native" call (blocking or not: both run MPI's
// nonblocking form but under SMPI, launch_native) runs scomm's schedule where the base MPI's
// nonblocking one is wrong.
Algorithm algorithm_for(const Call& call, bool in_place) {
  const Algorithm algorithm = call.choose(Operation::kAlltoallw, 0, call.comm.size());
  if (algorithm == Algorithm::kNative && native_nonblocking_is_wrong(call, in_place))
    return Algorithm::kLinear;
  return algorithm;
}

}  // namespace

// MPI_IN_PLACE: the blocks to send are the receive buffer's (receive counts, displacements and
// types), replaced by the ones received; the send arguments are ignored. The schedule depends
// on the counts alone (the cache's key); the places and types are its views.
p2p::Request alltoallw(const Call& call, const void* sendbuf, const int* sendcounts,
                       const int* sdispls, const MPI_Datatype* sendtypes, void* recvbuf,
                       const int* recvcounts, const int* rdispls, const MPI_Datatype* recvtypes) {
  const ExchangeArgs args(sendbuf, 1, MPI_BYTE, recvbuf, MPI_BYTE);
  const bool in_place = args.in_place();
  const int p = call.comm.size();
  std::vector<View> views;
  views.reserve(2 * static_cast<std::size_t>(p));
  const std::span<const int> send =
      in_place ? std::span<const int>{}
               : add_views(sendbuf, sendcounts, sdispls, sendtypes, p, views);
  const std::span<const int> recv = add_views(recvbuf, recvcounts, rdispls, recvtypes, p, views);
  const Algorithm algorithm = algorithm_for(call, in_place);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Ialltoallw, MPI_Alltoallw, sendbuf, sendcounts, sdispls,
                         sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
  Binding binding = args.binding();
  binding.views = views;
  const ScheduleKey key{Operation::kAlltoallw, algorithm, 0, in_place, 0, 0};
  if (!in_place)
    return launch(
        call, key, {send, recv}, [&] { return alltoallw_linear(call.shape(), send, recv); },
        binding);
  const std::vector<int> bytes = packed_lengths(recv, recvtypes);
  return launch(
      call, key, {recv, bytes}, [&] { return alltoallw_in_place(call.shape(), recv, bytes); },
      binding);
}

}  // namespace scomm::coll
