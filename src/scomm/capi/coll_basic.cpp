// SCOMM_Barrier, SCOMM_Bcast, SCOMM_Allreduce and their nonblocking and persistent forms.
#include "scomm/capi/coll_call.hpp"

using scomm::capi::always_used;
using scomm::capi::collective;
using scomm::capi::CommEntry;
using scomm::capi::flat_or_multilevel;
using scomm::capi::persistent_collective;
using scomm::capi::TypeList;
using scomm::coll::Call;
using scomm::coll::CallArgs;
using scomm::coll::Operation;
using scomm::coll::Signature;
namespace coll = scomm::coll;
namespace topo = scomm::topo;

namespace {

// What each collective runs, called by its blocking, nonblocking and persistent forms; the first
// two pass their arguments by reference (a closure holding copies of them cost a blocking call
// some 40 more instructions, scripts/instructions.sh).
scomm::p2p::Request start_barrier(const Call& call, CommEntry& e) {
  return flat_or_multilevel<Operation::kBarrier, topo::barrier, coll::barrier>(call, e);
}

scomm::p2p::Request start_bcast(const Call& call, CommEntry& e, void* buffer, int count,
                                MPI_Datatype datatype, int root) {
  return flat_or_multilevel<Operation::kBcast, topo::bcast, coll::bcast>(call, e, buffer, count,
                                                                         datatype, root);
}

scomm::p2p::Request start_allreduce(const Call& call, CommEntry& e, const void* sendbuf,
                                    void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  return flat_or_multilevel<Operation::kAllreduce, topo::allreduce, coll::allreduce>(
      call, e, sendbuf, recvbuf, count, datatype, op);
}

}  // namespace

extern "C" {

int SCOMM_Barrier(SCOMM_Comm comm) {
  return collective("SCOMM_Barrier", comm, Signature(Operation::kBarrier), CallArgs(), {},
                    [](const Call& call, CommEntry& e) { return start_barrier(call, e); });
}

int SCOMM_Ibarrier(SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Ibarrier", comm, request,
                    [](const Call& call, CommEntry& e) { return start_barrier(call, e); });
}

int SCOMM_Barrier_init(SCOMM_Comm comm, MPI_Info info, SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Barrier_init", comm, info, request,
      [](const Call& call, CommEntry& e) { return start_barrier(call, e); });
}

int SCOMM_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, SCOMM_Comm comm) {
  return collective(
      "SCOMM_Bcast", comm, Signature(Operation::kBcast).rooted_at(root).blocks({count, datatype}),
      CallArgs(buffer, count, datatype, root), {datatype}, [&](const Call& call, CommEntry& e) {
        return start_bcast(call, e, buffer, count, datatype, root);
      });
}

int SCOMM_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, SCOMM_Comm comm,
                 SCOMM_Request* request) {
  return collective("SCOMM_Ibcast", comm, request, [&](const Call& call, CommEntry& e) {
    return start_bcast(call, e, buffer, count, datatype, root);
  });
}

int SCOMM_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, SCOMM_Comm comm,
                     MPI_Info info, SCOMM_Request* request) {
  return persistent_collective("SCOMM_Bcast_init", comm, info, request,
                               always_used(datatype, MPI_DATATYPE_NULL),
                               [=](const Call& call, CommEntry& e, TypeList t) {
                                 return start_bcast(call, e, buffer, count, t[0], root);
                               });
}

int SCOMM_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    SCOMM_Comm comm) {
  return collective("SCOMM_Allreduce", comm,
                    Signature(Operation::kAllreduce).blocks({count, datatype}).reducing(op),
                    CallArgs(sendbuf, recvbuf, count, datatype, op), {datatype},
                    [&](const Call& call, CommEntry& e) {
                      return start_allreduce(call, e, sendbuf, recvbuf, count, datatype, op);
                    });
}

int SCOMM_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Iallreduce", comm, request, [&](const Call& call, CommEntry& e) {
    return start_allreduce(call, e, sendbuf, recvbuf, count, datatype, op);
  });
}

int SCOMM_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, SCOMM_Comm comm, MPI_Info info, SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Allreduce_init", comm, info, request, [=](const Call& call, CommEntry& e) {
        return start_allreduce(call, e, sendbuf, recvbuf, count, datatype, op);
      });
}

}  // extern "C"
