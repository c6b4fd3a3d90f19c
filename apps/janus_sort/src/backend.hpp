// The communicator operations the sort needs, for scomm and for MPI: the algorithm
// (sorter.hpp) is written once against this interface.
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

// Throws std::runtime_error naming `what` unless rc is success.
void check_rc(int rc, const char* what);

struct ScommBackend {
  using Comm = SCOMM_Comm;
  using Request = SCOMM_Request;
  static constexpr Comm kNullComm = SCOMM_COMM_NULL;
  static constexpr Request kNullRequest = SCOMM_REQUEST_NULL;

  static int rank(Comm comm);
  static int size(Comm comm);
  static void iallreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                         Comm comm, Request* request);
  static void iscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                    Comm comm, Request* request);
  static void ibcast(void* buffer, int count, MPI_Datatype type, int root, Comm comm,
                     Request* request);
  static void isend(const void* buffer, int count, MPI_Datatype type, int dest, int tag, Comm comm,
                    Request* request);
  static void irecv(void* buffer, int count, MPI_Datatype type, int tag, Comm comm,
                    Request* request);  // from any source
  // True when done (a null request is); `count` (may be null) gets a receive's element count.
  static bool test(Request* request, MPI_Datatype type, int* count);
  // How many overlapping children of `comm` local creation can keep live (SCOMM_Comm_local_slots).
  static int creation_slots(Comm comm);
  static void idup(Comm comm, Comm* copy, Request* request);
  // One local creation on `parent` (SCOMM_Comm_create_range): the caller's group is the range
  // of `ranges` that contains it (they are disjoint), kNullComm when none does.
  static Comm create(Comm parent, std::span<const Range> ranges);
  static void free(Comm* comm);
};

struct MpiBackend {
  using Comm = MPI_Comm;
  using Request = MPI_Request;
  static inline const Comm kNullComm = MPI_COMM_NULL;  // a cast in Open MPI: not constexpr
  static inline const Request kNullRequest = MPI_REQUEST_NULL;

  static int rank(Comm comm);
  static int size(Comm comm);
  static void iallreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                         Comm comm, Request* request);
  static void iscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                    Comm comm, Request* request);
  static void ibcast(void* buffer, int count, MPI_Datatype type, int root, Comm comm,
                     Request* request);
  static void isend(const void* buffer, int count, MPI_Datatype type, int dest, int tag, Comm comm,
                    Request* request);
  static void irecv(void* buffer, int count, MPI_Datatype type, int tag, Comm comm,
                    Request* request);
  static bool test(Request* request, MPI_Datatype type, int* count);
  static int creation_slots(Comm) { return 2; }  // splits have no such limit
  static void idup(Comm comm, Comm* copy, Request* request);
  // One MPI_Comm_split of `parent`: collective and blocking over all of it.
  static Comm create(Comm parent, std::span<const Range> ranges);
  static void free(Comm* comm);
};

// The index of the range containing `rank`, or -1.
inline int range_of(std::span<const Range> ranges, int rank) {
  for (std::size_t i = 0; i < ranges.size(); ++i)
    if (ranges[i].contains(rank)) return static_cast<int>(i);
  return -1;
}

}  // namespace janus::detail
