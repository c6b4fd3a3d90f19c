// The scomm build: every call is the scomm C API's, subgroups are local range creations.
#include <stdexcept>
#include <string>

#include "backend.hpp"

namespace janus::detail {

void check_rc(int rc, const char* what) {
  if (rc != MPI_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed: " + std::to_string(rc));
}

int ScommBackend::rank(Comm comm) {
  int rank = 0;
  check_rc(SCOMM_Comm_rank(comm, &rank), "SCOMM_Comm_rank");
  return rank;
}

int ScommBackend::size(Comm comm) {
  int size = 0;
  check_rc(SCOMM_Comm_size(comm, &size), "SCOMM_Comm_size");
  return size;
}

void ScommBackend::iallreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                              Comm comm, Request* request) {
  check_rc(SCOMM_Iallreduce(send, recv, count, type, op, comm, request), "SCOMM_Iallreduce");
}

void ScommBackend::iscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                         Comm comm, Request* request) {
  check_rc(SCOMM_Iscan(send, recv, count, type, op, comm, request), "SCOMM_Iscan");
}

void ScommBackend::ibcast(void* buffer, int count, MPI_Datatype type, int root, Comm comm,
                          Request* request) {
  check_rc(SCOMM_Ibcast(buffer, count, type, root, comm, request), "SCOMM_Ibcast");
}

void ScommBackend::isend(const void* buffer, int count, MPI_Datatype type, int dest, int tag,
                         Comm comm, Request* request) {
  check_rc(SCOMM_Isend(buffer, count, type, dest, tag, comm, request), "SCOMM_Isend");
}

void ScommBackend::irecv(void* buffer, int count, MPI_Datatype type, int tag, Comm comm,
                         Request* request) {
  check_rc(SCOMM_Irecv(buffer, count, type, SCOMM_ANY_SOURCE, tag, comm, request), "SCOMM_Irecv");
}

bool ScommBackend::test(Request* request, MPI_Datatype type, int* count) {
  if (*request == kNullRequest) return true;
  int flag = 0;
  SCOMM_Status status;
  check_rc(SCOMM_Test(request, &flag, count != nullptr ? &status : SCOMM_STATUS_IGNORE),
           "SCOMM_Test");
  if (flag != 0 && count != nullptr)
    check_rc(SCOMM_Get_count(&status, type, count), "SCOMM_Get_count");
  return flag != 0;
}

int ScommBackend::creation_slots(Comm comm) {
  int slots = 0;
  check_rc(SCOMM_Comm_local_slots(comm, &slots), "SCOMM_Comm_local_slots");
  return slots;
}

void ScommBackend::idup(Comm comm, Comm* copy, Request* request) {
  check_rc(SCOMM_Comm_idup(comm, copy, request), "SCOMM_Comm_idup");
}

ScommBackend::Comm ScommBackend::create(Comm parent, std::span<const Range> ranges) {
  // Members of every range make this one creation; the others pass the first range and get
  // SCOMM_COMM_NULL, so all members of the parent count the same creations (docs/DESIGN.md).
  const int mine = range_of(ranges, rank(parent));
  const Range& range = ranges[mine < 0 ? 0 : static_cast<std::size_t>(mine)];
  Comm child = kNullComm;
  check_rc(SCOMM_Comm_create_range(parent, range.first, range.last, 1, &child),
           "SCOMM_Comm_create_range");
  return child;
}

void ScommBackend::free(Comm* comm) {
  check_rc(SCOMM_Comm_free(comm), "SCOMM_Comm_free");
}

}  // namespace janus::detail
