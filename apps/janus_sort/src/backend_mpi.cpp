// The MPI build: MPI's own nonblocking collectives, subgroups from MPI_Comm_split.
#include "backend.hpp"

namespace janus::detail {

int MpiBackend::rank(Comm comm) {
  int rank = 0;
  check_rc(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  return rank;
}

int MpiBackend::size(Comm comm) {
  int size = 0;
  check_rc(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

void MpiBackend::iallreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                            Comm comm, Request* request) {
  check_rc(MPI_Iallreduce(send, recv, count, type, op, comm, request), "MPI_Iallreduce");
}

void MpiBackend::iscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                       Comm comm, Request* request) {
  check_rc(MPI_Iscan(send, recv, count, type, op, comm, request), "MPI_Iscan");
}

void MpiBackend::ibcast(void* buffer, int count, MPI_Datatype type, int root, Comm comm,
                        Request* request) {
  check_rc(MPI_Ibcast(buffer, count, type, root, comm, request), "MPI_Ibcast");
}

void MpiBackend::isend(const void* buffer, int count, MPI_Datatype type, int dest, int tag,
                       Comm comm, Request* request) {
  check_rc(MPI_Isend(buffer, count, type, dest, tag, comm, request), "MPI_Isend");
}

void MpiBackend::irecv(void* buffer, int count, MPI_Datatype type, int tag, Comm comm,
                       Request* request) {
  check_rc(MPI_Irecv(buffer, count, type, MPI_ANY_SOURCE, tag, comm, request), "MPI_Irecv");
}

bool MpiBackend::test(Request* request, MPI_Datatype type, int* count) {
  if (*request == kNullRequest) return true;
  int flag = 0;
  MPI_Status status;
  check_rc(MPI_Test(request, &flag, count != nullptr ? &status : MPI_STATUS_IGNORE), "MPI_Test");
  if (flag != 0 && count != nullptr) check_rc(MPI_Get_count(&status, type, count), "MPI_Get_count");
  return flag != 0;
}

void MpiBackend::idup(Comm comm, Comm* copy, Request* request) {
  check_rc(MPI_Comm_idup(comm, copy, request), "MPI_Comm_idup");
}

MpiBackend::Comm MpiBackend::create(Comm parent, std::span<const Range> ranges) {
  // A split gives each process one color: overlapping ranges (a Janus rank in both) need one
  // split each, as RBC's "MPI Split" baseline does; disjoint ones share a split.
  const int rank_in_parent = rank(parent);
  const int mine = range_of(ranges, rank_in_parent);
  Comm child = kNullComm;
  check_rc(MPI_Comm_split(parent, mine < 0 ? MPI_UNDEFINED : mine, rank_in_parent, &child),
           "MPI_Comm_split");
  return child;
}

void MpiBackend::free(Comm* comm) {
  check_rc(MPI_Comm_free(comm), "MPI_Comm_free");
}

}  // namespace janus::detail
