// SCOMM_Reduce, SCOMM_Scan, SCOMM_Exscan, SCOMM_Reduce_scatter_block, SCOMM_Reduce_scatter and
// their nonblocking forms (SCOMM_Allreduce is in coll_basic.cpp).
#include "scomm/capi/coll_call.hpp"

using scomm::capi::collective;
using scomm::capi::CommEntry;
using scomm::capi::multilevel_levels;
using scomm::coll::Call;
using scomm::coll::Operation;

namespace {

using scomm::p2p::Request;

Request start_reduce(const Call& call, CommEntry& e, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, int root) {
  if (const auto* levels = multilevel_levels(call, e, Operation::kReduce))
    return scomm::topo::reduce(call, *levels, sendbuf, recvbuf, count, datatype, op, root);
  return scomm::coll::reduce(call, sendbuf, recvbuf, count, datatype, op, root);
}

Request start_scan(const Call& call, CommEntry& e, const void* sendbuf, void* recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op) {
  if (const auto* levels = multilevel_levels(call, e, Operation::kScan))
    return scomm::topo::scan(call, *levels, sendbuf, recvbuf, count, datatype, op);
  return scomm::coll::scan(call, sendbuf, recvbuf, count, datatype, op);
}

Request start_exscan(const Call& call, CommEntry& e, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op) {
  if (const auto* levels = multilevel_levels(call, e, Operation::kExscan))
    return scomm::topo::exscan(call, *levels, sendbuf, recvbuf, count, datatype, op);
  return scomm::coll::exscan(call, sendbuf, recvbuf, count, datatype, op);
}

}  // namespace

extern "C" {

int SCOMM_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, SCOMM_Comm comm) {
  return collective("SCOMM_Reduce", comm, nullptr, false, [&](const Call& call, CommEntry& e) {
    return start_reduce(call, e, sendbuf, recvbuf, count, datatype, op, root);
  });
}

int SCOMM_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  int root, SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Ireduce", comm, request, true, [&](const Call& call, CommEntry& e) {
    return start_reduce(call, e, sendbuf, recvbuf, count, datatype, op, root);
  });
}

int SCOMM_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               SCOMM_Comm comm) {
  return collective("SCOMM_Scan", comm, nullptr, false, [&](const Call& call, CommEntry& e) {
    return start_scan(call, e, sendbuf, recvbuf, count, datatype, op);
  });
}

int SCOMM_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Iscan", comm, request, true, [&](const Call& call, CommEntry& e) {
    return start_scan(call, e, sendbuf, recvbuf, count, datatype, op);
  });
}

int SCOMM_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 SCOMM_Comm comm) {
  return collective("SCOMM_Exscan", comm, nullptr, false, [&](const Call& call, CommEntry& e) {
    return start_exscan(call, e, sendbuf, recvbuf, count, datatype, op);
  });
}

int SCOMM_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Iexscan", comm, request, true, [&](const Call& call, CommEntry& e) {
    return start_exscan(call, e, sendbuf, recvbuf, count, datatype, op);
  });
}

int SCOMM_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm) {
  return collective("SCOMM_Reduce_scatter_block", comm, nullptr, false, [&](const Call& call) {
    return scomm::coll::reduce_scatter_block(call, sendbuf, recvbuf, recvcount, datatype, op);
  });
}

int SCOMM_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm,
                                SCOMM_Request* request) {
  return collective("SCOMM_Ireduce_scatter_block", comm, request, true, [&](const Call& call) {
    return scomm::coll::reduce_scatter_block(call, sendbuf, recvbuf, recvcount, datatype, op);
  });
}

int SCOMM_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm) {
  return collective("SCOMM_Reduce_scatter", comm, nullptr, false, [&](const Call& call) {
    return scomm::coll::reduce_scatter(call, sendbuf, recvbuf, recvcounts, datatype, op);
  });
}

int SCOMM_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, SCOMM_Comm comm,
                          SCOMM_Request* request) {
  return collective("SCOMM_Ireduce_scatter", comm, request, true, [&](const Call& call) {
    return scomm::coll::reduce_scatter(call, sendbuf, recvbuf, recvcounts, datatype, op);
  });
}

}  // extern "C"
