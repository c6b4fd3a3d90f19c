// The neighborhood collectives: SCOMM_Neighbor_allgather(v), SCOMM_Neighbor_alltoall(v, w) and
// their nonblocking and persistent forms.
#include "scomm/capi/coll_call.hpp"
#include "scomm/group/neighborhood.hpp"

using scomm::capi::always_used;
using scomm::capi::collective;
using scomm::capi::CommEntry;
using scomm::capi::persistent_collective;
using scomm::capi::TypeList;
using scomm::capi::WTypes;
using scomm::coll::Call;
using scomm::coll::CallArgs;
using scomm::coll::Operation;
using scomm::coll::Signature;
namespace coll = scomm::coll;

namespace {

// What each collective runs, called by its blocking, nonblocking and persistent forms; the first
// two pass their arguments by reference (a closure holding copies of them cost a blocking call
// some 40 more instructions, scripts/instructions.sh).
scomm::p2p::Request start_neighbor_allgather(const Call& call, const void* sendbuf, int sendcount,
                                             MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                             MPI_Datatype recvtype) {
  return coll::neighbor_allgather(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

scomm::p2p::Request start_neighbor_allgatherv(const Call& call, const void* sendbuf, int sendcount,
                                              MPI_Datatype sendtype, void* recvbuf,
                                              const int recvcounts[], const int displs[],
                                              MPI_Datatype recvtype) {
  return coll::neighbor_allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype);
}

scomm::p2p::Request start_neighbor_alltoall(const Call& call, const void* sendbuf, int sendcount,
                                            MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                            MPI_Datatype recvtype) {
  return coll::neighbor_alltoall(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

scomm::p2p::Request start_neighbor_alltoallv(const Call& call, const void* sendbuf,
                                             const int sendcounts[], const int sdispls[],
                                             MPI_Datatype sendtype, void* recvbuf,
                                             const int recvcounts[], const int rdispls[],
                                             MPI_Datatype recvtype) {
  return coll::neighbor_alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                  rdispls, recvtype);
}

scomm::p2p::Request start_neighbor_alltoallw(const Call& call, const void* sendbuf,
                                             const int sendcounts[], const MPI_Aint sdispls[],
                                             const MPI_Datatype sendtypes[], void* recvbuf,
                                             const int recvcounts[], const MPI_Aint rdispls[],
                                             const MPI_Datatype recvtypes[]) {
  return coll::neighbor_alltoallw(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                  recvcounts, rdispls, recvtypes);
}

}  // namespace

extern "C" {

int SCOMM_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm) {
  return collective("SCOMM_Neighbor_allgather", comm, Signature(Operation::kNeighborAllgather),
                    CallArgs(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
                    {sendtype, recvtype}, [&](const Call& call) {
                      return start_neighbor_allgather(call, sendbuf, sendcount, sendtype, recvbuf,
                                                      recvcount, recvtype);
                    });
}

int SCOMM_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm,
                              SCOMM_Request* request) {
  return collective("SCOMM_Ineighbor_allgather", comm, request, [&](const Call& call) {
    return start_neighbor_allgather(call, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                    recvtype);
  });
}

int SCOMM_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                  SCOMM_Comm comm, MPI_Info info, SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Neighbor_allgather_init", comm, info, request, always_used(sendtype, recvtype),
      [=](const Call& call, CommEntry&, TypeList t) {
        return start_neighbor_allgather(call, sendbuf, sendcount, t[0], recvbuf, recvcount, t[1]);
      });
}

int SCOMM_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, SCOMM_Comm comm) {
  return collective("SCOMM_Neighbor_allgatherv", comm, Signature(Operation::kNeighborAllgatherv),
                    CallArgs(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype),
                    {sendtype, recvtype}, [&](const Call& call) {
                      return start_neighbor_allgatherv(call, sendbuf, sendcount, sendtype, recvbuf,
                                                       recvcounts, displs, recvtype);
                    });
}

int SCOMM_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Ineighbor_allgatherv", comm, request, [&](const Call& call) {
    return start_neighbor_allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                     displs, recvtype);
  });
}

int SCOMM_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                   void* recvbuf, const int recvcounts[], const int displs[],
                                   MPI_Datatype recvtype, SCOMM_Comm comm, MPI_Info info,
                                   SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Neighbor_allgatherv_init", comm, info, request, always_used(sendtype, recvtype),
      [=](const Call& call, CommEntry&, TypeList t) {
        return start_neighbor_allgatherv(call, sendbuf, sendcount, t[0], recvbuf, recvcounts,
                                         displs, t[1]);
      });
}

int SCOMM_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm) {
  return collective("SCOMM_Neighbor_alltoall", comm, Signature(Operation::kNeighborAlltoall),
                    CallArgs(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
                    {sendtype, recvtype}, [&](const Call& call) {
                      return start_neighbor_alltoall(call, sendbuf, sendcount, sendtype, recvbuf,
                                                     recvcount, recvtype);
                    });
}

int SCOMM_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm,
                             SCOMM_Request* request) {
  return collective("SCOMM_Ineighbor_alltoall", comm, request, [&](const Call& call) {
    return start_neighbor_alltoall(call, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                   recvtype);
  });
}

int SCOMM_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                 SCOMM_Comm comm, MPI_Info info, SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Neighbor_alltoall_init", comm, info, request, always_used(sendtype, recvtype),
      [=](const Call& call, CommEntry&, TypeList t) {
        return start_neighbor_alltoall(call, sendbuf, sendcount, t[0], recvbuf, recvcount, t[1]);
      });
}

int SCOMM_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm) {
  return collective(
      "SCOMM_Neighbor_alltoallv", comm, Signature(Operation::kNeighborAlltoallv),
      CallArgs(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype),
      {sendtype, recvtype}, [&](const Call& call) {
        return start_neighbor_alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                        recvcounts, rdispls, recvtype);
      });
}

int SCOMM_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm,
                              SCOMM_Request* request) {
  return collective("SCOMM_Ineighbor_alltoallv", comm, request, [&](const Call& call) {
    return start_neighbor_alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                    recvcounts, rdispls, recvtype);
  });
}

int SCOMM_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                  const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm,
                                  MPI_Info info, SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Neighbor_alltoallv_init", comm, info, request, always_used(sendtype, recvtype),
      [=](const Call& call, CommEntry&, TypeList t) {
        return start_neighbor_alltoallv(call, sendbuf, sendcounts, sdispls, t[0], recvbuf,
                                        recvcounts, rdispls, t[1]);
      });
}

int SCOMM_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             SCOMM_Comm comm) {
  return collective("SCOMM_Neighbor_alltoallw", comm, Signature(Operation::kNeighborAlltoallw),
                    [&](const Call& call) {
                      return start_neighbor_alltoallw(call, sendbuf, sendcounts, sdispls, sendtypes,
                                                      recvbuf, recvcounts, rdispls, recvtypes);
                    });
}

int SCOMM_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                              SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Ineighbor_alltoallw", comm, request, [&](const Call& call) {
    return start_neighbor_alltoallw(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                    recvcounts, rdispls, recvtypes);
  });
}

int SCOMM_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[],
                                  const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                  void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                  const MPI_Datatype recvtypes[], SCOMM_Comm comm, MPI_Info info,
                                  SCOMM_Request* request) {
  // No topology, no blocks: the start's checks then say so.
  const auto types_among = [=](const CommEntry& e) {
    const scomm::group::Degrees degrees =
        e.comm.topology() ? scomm::group::degrees_of(*e.comm.topology()) : scomm::group::Degrees{};
    return WTypes(sendbuf, sendtypes, recvtypes, degrees.out, degrees.in);
  };
  return persistent_collective(
      "SCOMM_Neighbor_alltoallw_init", comm, info, request,
      [=](const CommEntry& e) { return types_among(e).arguments(); },
      [=](const Call& call, CommEntry& e, TypeList t) {
        const WTypes w = types_among(e);
        return start_neighbor_alltoallw(call, sendbuf, sendcounts, sdispls, w.send(t), recvbuf,
                                        recvcounts, rdispls, w.receive(t));
      });
}

}  // extern "C"
