// SCOMM_Barrier, SCOMM_Bcast, SCOMM_Allreduce and their nonblocking forms.
#include "scomm/capi/coll_call.hpp"

using scomm::capi::collective;
using scomm::capi::CommEntry;
using scomm::capi::multilevel_levels;
using scomm::coll::Call;
using scomm::coll::Operation;

namespace {

using scomm::p2p::Request;

Request start_barrier(const Call& call, CommEntry& e) {
  if (const auto* levels = multilevel_levels(call, e, Operation::kBarrier))
    return scomm::topo::barrier(call, *levels);
  return scomm::coll::barrier(call);
}

Request start_bcast(const Call& call, CommEntry& e, void* buffer, int count, MPI_Datatype datatype,
                    int root) {
  if (const auto* levels = multilevel_levels(call, e, Operation::kBcast))
    return scomm::topo::bcast(call, *levels, buffer, count, datatype, root);
  return scomm::coll::bcast(call, buffer, count, datatype, root);
}

Request start_allreduce(const Call& call, CommEntry& e, const void* sendbuf, void* recvbuf,
                        int count, MPI_Datatype datatype, MPI_Op op) {
  if (const auto* levels = multilevel_levels(call, e, Operation::kAllreduce))
    return scomm::topo::allreduce(call, *levels, sendbuf, recvbuf, count, datatype, op);
  return scomm::coll::allreduce(call, sendbuf, recvbuf, count, datatype, op);
}

}  // namespace

extern "C" {

int SCOMM_Barrier(SCOMM_Comm comm) {
  return collective("SCOMM_Barrier", comm, nullptr, false,
                    [&](const Call& call, CommEntry& e) { return start_barrier(call, e); });
}

int SCOMM_Ibarrier(SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Ibarrier", comm, request, true,
                    [&](const Call& call, CommEntry& e) { return start_barrier(call, e); });
}

int SCOMM_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, SCOMM_Comm comm) {
  return collective("SCOMM_Bcast", comm, nullptr, false, [&](const Call& call, CommEntry& e) {
    return start_bcast(call, e, buffer, count, datatype, root);
  });
}

int SCOMM_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, SCOMM_Comm comm,
                 SCOMM_Request* request) {
  return collective("SCOMM_Ibcast", comm, request, true, [&](const Call& call, CommEntry& e) {
    return start_bcast(call, e, buffer, count, datatype, root);
  });
}

int SCOMM_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    SCOMM_Comm comm) {
  return collective("SCOMM_Allreduce", comm, nullptr, false, [&](const Call& call, CommEntry& e) {
    return start_allreduce(call, e, sendbuf, recvbuf, count, datatype, op);
  });
}

int SCOMM_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Iallreduce", comm, request, true, [&](const Call& call, CommEntry& e) {
    return start_allreduce(call, e, sendbuf, recvbuf, count, datatype, op);
  });
}

}  // extern "C"
