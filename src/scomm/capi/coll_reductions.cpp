// SCOMM_Reduce, SCOMM_Scan, SCOMM_Exscan, SCOMM_Reduce_scatter_block, SCOMM_Reduce_scatter and
// their nonblocking and persistent forms (SCOMM_Allreduce is in coll_basic.cpp).
#include "scomm/capi/coll_call.hpp"

using scomm::capi::collective;
using scomm::capi::CommEntry;
using scomm::capi::flat_or_multilevel;
using scomm::capi::persistent_collective;
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
scomm::p2p::Request start_reduce(const Call& call, CommEntry& e, const void* sendbuf, void* recvbuf,
                                 int count, MPI_Datatype datatype, MPI_Op op, int root) {
  return flat_or_multilevel<Operation::kReduce, topo::reduce, coll::reduce>(
      call, e, sendbuf, recvbuf, count, datatype, op, root);
}

scomm::p2p::Request start_scan(const Call& call, CommEntry& e, const void* sendbuf, void* recvbuf,
                               int count, MPI_Datatype datatype, MPI_Op op) {
  return flat_or_multilevel<Operation::kScan, topo::scan, coll::scan>(call, e, sendbuf, recvbuf,
                                                                      count, datatype, op);
}

scomm::p2p::Request start_exscan(const Call& call, CommEntry& e, const void* sendbuf, void* recvbuf,
                                 int count, MPI_Datatype datatype, MPI_Op op) {
  return flat_or_multilevel<Operation::kExscan, topo::exscan, coll::exscan>(
      call, e, sendbuf, recvbuf, count, datatype, op);
}

scomm::p2p::Request start_reduce_scatter_block(const Call& call, const void* sendbuf, void* recvbuf,
                                               int recvcount, MPI_Datatype datatype, MPI_Op op) {
  return coll::reduce_scatter_block(call, sendbuf, recvbuf, recvcount, datatype, op);
}

scomm::p2p::Request start_reduce_scatter(const Call& call, const void* sendbuf, void* recvbuf,
                                         const int recvcounts[], MPI_Datatype datatype, MPI_Op op) {
  return coll::reduce_scatter(call, sendbuf, recvbuf, recvcounts, datatype, op);
}

}  // namespace

extern "C" {

int SCOMM_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, SCOMM_Comm comm) {
  return collective(
      "SCOMM_Reduce", comm,
      Signature(Operation::kReduce).rooted_at(root).blocks({count, datatype}).reducing(op),
      CallArgs(sendbuf, recvbuf, count, datatype, op, root), {datatype},
      [&](const Call& call, CommEntry& e) {
        return start_reduce(call, e, sendbuf, recvbuf, count, datatype, op, root);
      });
}

int SCOMM_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  int root, SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Ireduce", comm, request, [&](const Call& call, CommEntry& e) {
    return start_reduce(call, e, sendbuf, recvbuf, count, datatype, op, root);
  });
}

int SCOMM_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, int root, SCOMM_Comm comm, MPI_Info info, SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Reduce_init", comm, info, request, [=](const Call& call, CommEntry& e) {
        return start_reduce(call, e, sendbuf, recvbuf, count, datatype, op, root);
      });
}

int SCOMM_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               SCOMM_Comm comm) {
  return collective("SCOMM_Scan", comm,
                    Signature(Operation::kScan).blocks({count, datatype}).reducing(op),
                    CallArgs(sendbuf, recvbuf, count, datatype, op), {datatype},
                    [&](const Call& call, CommEntry& e) {
                      return start_scan(call, e, sendbuf, recvbuf, count, datatype, op);
                    });
}

int SCOMM_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Iscan", comm, request, [&](const Call& call, CommEntry& e) {
    return start_scan(call, e, sendbuf, recvbuf, count, datatype, op);
  });
}

int SCOMM_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    SCOMM_Comm comm, MPI_Info info, SCOMM_Request* request) {
  return persistent_collective("SCOMM_Scan_init", comm, info, request,
                               [=](const Call& call, CommEntry& e) {
                                 return start_scan(call, e, sendbuf, recvbuf, count, datatype, op);
                               });
}

int SCOMM_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 SCOMM_Comm comm) {
  return collective("SCOMM_Exscan", comm,
                    Signature(Operation::kExscan).blocks({count, datatype}).reducing(op),
                    CallArgs(sendbuf, recvbuf, count, datatype, op), {datatype},
                    [&](const Call& call, CommEntry& e) {
                      return start_exscan(call, e, sendbuf, recvbuf, count, datatype, op);
                    });
}

int SCOMM_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Iexscan", comm, request, [&](const Call& call, CommEntry& e) {
    return start_exscan(call, e, sendbuf, recvbuf, count, datatype, op);
  });
}

int SCOMM_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, SCOMM_Comm comm, MPI_Info info, SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Exscan_init", comm, info, request, [=](const Call& call, CommEntry& e) {
        return start_exscan(call, e, sendbuf, recvbuf, count, datatype, op);
      });
}

int SCOMM_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm) {
  return collective(
      "SCOMM_Reduce_scatter_block", comm,
      Signature(Operation::kReduceScatterBlock).blocks({recvcount, datatype}).reducing(op),
      CallArgs(sendbuf, recvbuf, recvcount, datatype, op), {datatype}, [&](const Call& call) {
        return start_reduce_scatter_block(call, sendbuf, recvbuf, recvcount, datatype, op);
      });
}

int SCOMM_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm,
                                SCOMM_Request* request) {
  return collective("SCOMM_Ireduce_scatter_block", comm, request, [&](const Call& call) {
    return start_reduce_scatter_block(call, sendbuf, recvbuf, recvcount, datatype, op);
  });
}

int SCOMM_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount,
                                    MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm,
                                    MPI_Info info, SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Reduce_scatter_block_init", comm, info, request, [=](const Call& call) {
        return start_reduce_scatter_block(call, sendbuf, recvbuf, recvcount, datatype, op);
      });
}

int SCOMM_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm) {
  return collective(
      "SCOMM_Reduce_scatter", comm,
      Signature(Operation::kReduceScatter).reducing(op).counts_alike(recvcounts, datatype),
      CallArgs(sendbuf, recvbuf, recvcounts, datatype, op), {datatype}, [&](const Call& call) {
        return start_reduce_scatter(call, sendbuf, recvbuf, recvcounts, datatype, op);
      });
}

int SCOMM_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm,
                          SCOMM_Request* request) {
  return collective("SCOMM_Ireduce_scatter", comm, request, [&](const Call& call) {
    return start_reduce_scatter(call, sendbuf, recvbuf, recvcounts, datatype, op);
  });
}

int SCOMM_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[],
                              MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm, MPI_Info info,
                              SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Reduce_scatter_init", comm, info, request, [=](const Call& call) {
        return start_reduce_scatter(call, sendbuf, recvbuf, recvcounts, datatype, op);
      });
}

}  // extern "C"
