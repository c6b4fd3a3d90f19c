// The communicator operations the sort needs, for scomm and for MPI: the algorithm
// (sorter.hpp) is written once against Backend<Calls>. scomm's C API mirrors MPI's call for
// call, so the backend is written once over a table of the calls; only subgroup creation
// differs (local range creation against MPI_Comm_split).
#pragma once

#include <mpi.h>

#include <span>

#include "scomm.h"

namespace janus::detail {

// Ranks [first, last] of a parent communicator.
struct Range {
  int first = 0, last = -1;
  bool contains(int rank) const { return first <= rank && rank <= last; }
  int size() const { return last - first + 1; }
};

// The index of the range containing `rank`, or -1.
inline int range_of(std::span<const Range> ranges, int rank) {
  for (std::size_t i = 0; i < ranges.size(); ++i)
    if (ranges[i].contains(rank)) return static_cast<int>(i);
  return -1;
}

// Throws std::runtime_error naming `prefix`_`call` unless rc is success.
void check_rc(int rc, const char* prefix, const char* call);

struct ScommCalls {
  using Comm = SCOMM_Comm;
  using Request = SCOMM_Request;
  using Status = SCOMM_Status;
  static constexpr const char* kPrefix = "SCOMM";
  static constexpr Comm kNullComm = SCOMM_COMM_NULL;
  static constexpr Request kNullRequest = SCOMM_REQUEST_NULL;
  static constexpr int kAnySource = SCOMM_ANY_SOURCE;
  static constexpr auto comm_rank = SCOMM_Comm_rank;
  static constexpr auto comm_size = SCOMM_Comm_size;
  static constexpr auto iallreduce_call = SCOMM_Iallreduce;
  static constexpr auto iscan_call = SCOMM_Iscan;
  static constexpr auto iallgather_call = SCOMM_Iallgather;
  static constexpr auto ibcast_call = SCOMM_Ibcast;
  static constexpr auto isend_call = SCOMM_Isend;
  static constexpr auto irecv_call = SCOMM_Irecv;
  static constexpr auto test_call = SCOMM_Test;
  static constexpr auto get_count = SCOMM_Get_count;
  static constexpr auto idup_call = SCOMM_Comm_idup;
  static constexpr auto free_call = SCOMM_Comm_free;
  static Status* status_ignore() { return SCOMM_STATUS_IGNORE; }

  // How many overlapping children of `comm` local creation can keep live
  // (SCOMM_Comm_local_slots).
  static int creation_slots(Comm comm);
  // One local creation on `parent` (SCOMM_Comm_create_range): the caller's group is the range
  // of `ranges` that contains it (they are disjoint), kNullComm when none does.
  static Comm create(Comm parent, std::span<const Range> ranges);
};

struct MpiCalls {
  using Comm = MPI_Comm;
  using Request = MPI_Request;
  using Status = MPI_Status;
  static constexpr const char* kPrefix = "MPI";
  static inline const Comm kNullComm = MPI_COMM_NULL;  // a cast in Open MPI: not constexpr
  static inline const Request kNullRequest = MPI_REQUEST_NULL;
  static constexpr int kAnySource = MPI_ANY_SOURCE;
  static constexpr auto comm_rank = MPI_Comm_rank;
  static constexpr auto comm_size = MPI_Comm_size;
  static constexpr auto iallreduce_call = MPI_Iallreduce;
  static constexpr auto iscan_call = MPI_Iscan;
  static constexpr auto iallgather_call = MPI_Iallgather;
  static constexpr auto ibcast_call = MPI_Ibcast;
  static constexpr auto isend_call = MPI_Isend;
  static constexpr auto irecv_call = MPI_Irecv;
  static constexpr auto test_call = MPI_Test;
  static constexpr auto get_count = MPI_Get_count;
  static constexpr auto idup_call = MPI_Comm_idup;
  static constexpr auto free_call = MPI_Comm_free;
  static Status* status_ignore() { return MPI_STATUS_IGNORE; }

  static int creation_slots(Comm) { return 2; }  // splits have no such limit
  // One MPI_Comm_split of `parent`: collective and blocking over all of it.
  static Comm create(Comm parent, std::span<const Range> ranges);
};

template <typename Calls>
struct Backend : Calls {
  using Comm = typename Calls::Comm;
  using Request = typename Calls::Request;

  static int rank(Comm comm) {
    int rank = 0;
    check(Calls::comm_rank(comm, &rank), "Comm_rank");
    return rank;
  }
  static int size(Comm comm) {
    int size = 0;
    check(Calls::comm_size(comm, &size), "Comm_size");
    return size;
  }
  static void iallreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                         Comm comm, Request* request) {
    check(Calls::iallreduce_call(send, recv, count, type, op, comm, request), "Iallreduce");
  }
  static void iscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                    Comm comm, Request* request) {
    check(Calls::iscan_call(send, recv, count, type, op, comm, request), "Iscan");
  }
  static void iallgather(const void* send, int send_count, MPI_Datatype send_type, void* recv,
                         int recv_count, MPI_Datatype recv_type, Comm comm, Request* request) {
    check(Calls::iallgather_call(send, send_count, send_type, recv, recv_count, recv_type, comm,
                                 request),
          "Iallgather");
  }
  static void ibcast(void* buffer, int count, MPI_Datatype type, int root, Comm comm,
                     Request* request) {
    check(Calls::ibcast_call(buffer, count, type, root, comm, request), "Ibcast");
  }
  static void isend(const void* buffer, int count, MPI_Datatype type, int dest, int tag, Comm comm,
                    Request* request) {
    check(Calls::isend_call(buffer, count, type, dest, tag, comm, request), "Isend");
  }
  // From any source.
  static void irecv(void* buffer, int count, MPI_Datatype type, int tag, Comm comm,
                    Request* request) {
    check(Calls::irecv_call(buffer, count, type, Calls::kAnySource, tag, comm, request), "Irecv");
  }
  // True when done (a null request is); `count` (may be null) gets a receive's element count.
  static bool test(Request* request, MPI_Datatype type, int* count) {
    if (*request == Calls::kNullRequest) return true;
    int flag = 0;
    typename Calls::Status status;
    check(Calls::test_call(request, &flag, count != nullptr ? &status : Calls::status_ignore()),
          "Test");
    if (flag != 0 && count != nullptr) check(Calls::get_count(&status, type, count), "Get_count");
    return flag != 0;
  }
  static void idup(Comm comm, Comm* copy, Request* request) {
    check(Calls::idup_call(comm, copy, request), "Comm_idup");
  }
  static void free(Comm* comm) { check(Calls::free_call(comm), "Comm_free"); }
  static void check(int rc, const char* call) { check_rc(rc, Calls::kPrefix, call); }
};

using ScommBackend = Backend<ScommCalls>;
using MpiBackend = Backend<MpiCalls>;

}  // namespace janus::detail
