// The data-movement collectives: SCOMM_Gather(v), SCOMM_Scatter(v), SCOMM_Allgather(v),
// SCOMM_Alltoall(v) and their nonblocking forms.
#include "scomm/capi/coll_call.hpp"

using scomm::capi::collective;
using scomm::capi::CommEntry;
using scomm::capi::multilevel_levels;
using scomm::coll::Call;
using scomm::coll::Operation;

namespace {

using scomm::p2p::Request;

Request start_gather(const Call& call, CommEntry& e, const void* sendbuf, int sendcount,
                     MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root) {
  if (const auto* levels = multilevel_levels(call, e, Operation::kGather))
    return scomm::topo::gather(call, *levels, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, root);
  return scomm::coll::gather(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                             root);
}

Request start_scatter(const Call& call, CommEntry& e, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root) {
  if (const auto* levels = multilevel_levels(call, e, Operation::kScatter))
    return scomm::topo::scatter(call, *levels, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                recvtype, root);
  return scomm::coll::scatter(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                              root);
}

Request start_allgather(const Call& call, CommEntry& e, const void* sendbuf, int sendcount,
                        MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype) {
  if (const auto* levels = multilevel_levels(call, e, Operation::kAllgather))
    return scomm::topo::allgather(call, *levels, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                  recvtype);
  return scomm::coll::allgather(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

Request start_alltoall(const Call& call, CommEntry& e, const void* sendbuf, int sendcount,
                       MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype) {
  if (const auto* levels = multilevel_levels(call, e, Operation::kAlltoall))
    return scomm::topo::alltoall(call, *levels, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                 recvtype);
  return scomm::coll::alltoall(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

}  // namespace

extern "C" {

int SCOMM_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm) {
  return collective("SCOMM_Gather", comm, nullptr, false, [&](const Call& call, CommEntry& e) {
    return start_gather(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int SCOMM_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm,
                  SCOMM_Request* request) {
  return collective("SCOMM_Igather", comm, request, true, [&](const Call& call, CommEntry& e) {
    return start_gather(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int SCOMM_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  SCOMM_Comm comm) {
  return collective("SCOMM_Gatherv", comm, nullptr, false, [&](const Call& call) {
    return scomm::coll::gatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                recvtype, root);
  });
}

int SCOMM_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                   SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Igatherv", comm, request, true, [&](const Call& call) {
    return scomm::coll::gatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                recvtype, root);
  });
}

int SCOMM_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm) {
  return collective("SCOMM_Scatter", comm, nullptr, false, [&](const Call& call, CommEntry& e) {
    return start_scatter(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int SCOMM_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm,
                   SCOMM_Request* request) {
  return collective("SCOMM_Iscatter", comm, request, true, [&](const Call& call, CommEntry& e) {
    return start_scatter(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int SCOMM_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, SCOMM_Comm comm) {
  return collective("SCOMM_Scatterv", comm, nullptr, false, [&](const Call& call) {
    return scomm::coll::scatterv(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                 recvtype, root);
  });
}

int SCOMM_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                    MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                    int root, SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Iscatterv", comm, request, true, [&](const Call& call) {
    return scomm::coll::scatterv(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                 recvtype, root);
  });
}

int SCOMM_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm) {
  return collective("SCOMM_Allgather", comm, nullptr, false, [&](const Call& call, CommEntry& e) {
    return start_allgather(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}

int SCOMM_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm,
                     SCOMM_Request* request) {
  return collective("SCOMM_Iallgather", comm, request, true, [&](const Call& call, CommEntry& e) {
    return start_allgather(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}

int SCOMM_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     SCOMM_Comm comm) {
  return collective("SCOMM_Allgatherv", comm, nullptr, false, [&](const Call& call) {
    return scomm::coll::allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype);
  });
}

int SCOMM_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Iallgatherv", comm, request, true, [&](const Call& call) {
    return scomm::coll::allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype);
  });
}

int SCOMM_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm) {
  return collective("SCOMM_Alltoall", comm, nullptr, false, [&](const Call& call, CommEntry& e) {
    return start_alltoall(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}

int SCOMM_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Ialltoall", comm, request, true, [&](const Call& call, CommEntry& e) {
    return start_alltoall(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}

int SCOMM_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm) {
  return collective("SCOMM_Alltoallv", comm, nullptr, false, [&](const Call& call) {
    return scomm::coll::alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                  rdispls, recvtype);
  });
}

int SCOMM_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                     MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm,
                     SCOMM_Request* request) {
  return collective("SCOMM_Ialltoallv", comm, request, true, [&](const Call& call) {
    return scomm::coll::alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                  rdispls, recvtype);
  });
}

}  // extern "C"
