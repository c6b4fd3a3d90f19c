// The data-movement collectives: SCOMM_Gather(v), SCOMM_Scatter(v), SCOMM_Allgather(v),
// SCOMM_Alltoall(v, w) and their nonblocking and persistent forms.
#include "scomm/capi/coll_call.hpp"

using scomm::capi::always_used;
using scomm::capi::collective;
using scomm::capi::CommEntry;
using scomm::capi::flat_or_multilevel;
using scomm::capi::gathered_at;
using scomm::capi::persistent_collective;
using scomm::capi::scattered_from;
using scomm::capi::sent_unless_in_place;
using scomm::capi::TypeList;
using scomm::capi::WTypes;
using scomm::coll::Call;
using scomm::coll::CallArgs;
using scomm::coll::Signature;
using Block = scomm::coll::Signature::Block;
using scomm::coll::Operation;
namespace coll = scomm::coll;
namespace topo = scomm::topo;

namespace {

// Each member's block for the agreement: the one it sends, or with MPI_IN_PLACE the one already
// in its receive buffer.
Block sent_block(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                 MPI_Datatype recvtype) {
  return sendbuf == SCOMM_IN_PLACE ? Block{recvcount, recvtype} : Block{sendcount, sendtype};
}

// The block each member receives, or with MPI_IN_PLACE (the root of a scatter) the one it keeps.
Block received_block(const void* recvbuf, int recvcount, MPI_Datatype recvtype, int sendcount,
                     MPI_Datatype sendtype) {
  return recvbuf == SCOMM_IN_PLACE ? Block{sendcount, sendtype} : Block{recvcount, recvtype};
}

// What each collective runs, called by its blocking, nonblocking and persistent forms; the first
// two pass their arguments by reference (a closure holding copies of them cost a blocking call
// some 40 more instructions, scripts/instructions.sh).
scomm::p2p::Request start_gather(const Call& call, CommEntry& e, const void* sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                 MPI_Datatype recvtype, int root) {
  return flat_or_multilevel<Operation::kGather, topo::gather, coll::gather>(
      call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
}

scomm::p2p::Request start_gatherv(const Call& call, const void* sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                  const int displs[], MPI_Datatype recvtype, int root) {
  return coll::gatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                       root);
}

scomm::p2p::Request start_scatter(const Call& call, CommEntry& e, const void* sendbuf,
                                  int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  int recvcount, MPI_Datatype recvtype, int root) {
  return flat_or_multilevel<Operation::kScatter, topo::scatter, coll::scatter>(
      call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
}

scomm::p2p::Request start_scatterv(const Call& call, const void* sendbuf, const int sendcounts[],
                                   const int displs[], MPI_Datatype sendtype, void* recvbuf,
                                   int recvcount, MPI_Datatype recvtype, int root) {
  return coll::scatterv(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                        root);
}

scomm::p2p::Request start_allgather(const Call& call, CommEntry& e, const void* sendbuf,
                                    int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                    int recvcount, MPI_Datatype recvtype) {
  return flat_or_multilevel<Operation::kAllgather, topo::allgather, coll::allgather>(
      call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

scomm::p2p::Request start_allgatherv(const Call& call, const void* sendbuf, int sendcount,
                                     MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                     const int displs[], MPI_Datatype recvtype) {
  return coll::allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                          recvtype);
}

scomm::p2p::Request start_alltoall(const Call& call, CommEntry& e, const void* sendbuf,
                                   int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                   int recvcount, MPI_Datatype recvtype) {
  return flat_or_multilevel<Operation::kAlltoall, topo::alltoall, coll::alltoall>(
      call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

scomm::p2p::Request start_alltoallv(const Call& call, const void* sendbuf, const int sendcounts[],
                                    const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                                    const int recvcounts[], const int rdispls[],
                                    MPI_Datatype recvtype) {
  return coll::alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                         recvtype);
}

scomm::p2p::Request start_alltoallw(const Call& call, const void* sendbuf, const int sendcounts[],
                                    const int sdispls[], const MPI_Datatype sendtypes[],
                                    void* recvbuf, const int recvcounts[], const int rdispls[],
                                    const MPI_Datatype recvtypes[]) {
  return coll::alltoallw(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                         rdispls, recvtypes);
}

}  // namespace

extern "C" {

int SCOMM_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm) {
  return collective("SCOMM_Gather", comm,
                    Signature(Operation::kGather)
                        .rooted_at(root)
                        .blocks(sent_block(sendbuf, sendcount, sendtype, recvcount, recvtype)),
                    CallArgs(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root),
                    {sendtype, recvtype}, [&](const Call& call, CommEntry& e) {
                      return start_gather(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, root);
                    });
}

int SCOMM_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm,
                  SCOMM_Request* request) {
  return collective("SCOMM_Igather", comm, request, [&](const Call& call, CommEntry& e) {
    return start_gather(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int SCOMM_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm,
                      MPI_Info info, SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Gather_init", comm, info, request, gathered_at(root, sendbuf, sendtype, recvtype),
      [=](const Call& call, CommEntry& e, TypeList t) {
        return start_gather(call, e, sendbuf, sendcount, t[0], recvbuf, recvcount, t[1], root);
      });
}

int SCOMM_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  SCOMM_Comm comm) {
  return collective(
      "SCOMM_Gatherv", comm, Signature(Operation::kGatherv).rooted_at(root),
      CallArgs(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root),
      {sendtype, recvtype}, [&](const Call& call) {
        return start_gatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                             recvtype, root);
      });
}

int SCOMM_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                   SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Igatherv", comm, request, [&](const Call& call) {
    return start_gatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                         root);
  });
}

int SCOMM_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                       SCOMM_Comm comm, MPI_Info info, SCOMM_Request* request) {
  return persistent_collective("SCOMM_Gatherv_init", comm, info, request,
                               gathered_at(root, sendbuf, sendtype, recvtype),
                               [=](const Call& call, CommEntry&, TypeList t) {
                                 return start_gatherv(call, sendbuf, sendcount, t[0], recvbuf,
                                                      recvcounts, displs, t[1], root);
                               });
}

int SCOMM_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm) {
  return collective("SCOMM_Scatter", comm,
                    Signature(Operation::kScatter)
                        .rooted_at(root)
                        .blocks(received_block(recvbuf, recvcount, recvtype, sendcount, sendtype)),
                    CallArgs(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root),
                    {sendtype, recvtype}, [&](const Call& call, CommEntry& e) {
                      return start_scatter(call, e, sendbuf, sendcount, sendtype, recvbuf,
                                           recvcount, recvtype, root);
                    });
}

int SCOMM_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm,
                   SCOMM_Request* request) {
  return collective("SCOMM_Iscatter", comm, request, [&](const Call& call, CommEntry& e) {
    return start_scatter(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int SCOMM_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, SCOMM_Comm comm,
                       MPI_Info info, SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Scatter_init", comm, info, request, scattered_from(root, recvbuf, sendtype, recvtype),
      [=](const Call& call, CommEntry& e, TypeList t) {
        return start_scatter(call, e, sendbuf, sendcount, t[0], recvbuf, recvcount, t[1], root);
      });
}

int SCOMM_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, SCOMM_Comm comm) {
  return collective(
      "SCOMM_Scatterv", comm, Signature(Operation::kScatterv).rooted_at(root),
      CallArgs(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root),
      {sendtype, recvtype}, [&](const Call& call) {
        return start_scatterv(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                              recvtype, root);
      });
}

int SCOMM_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                    MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                    int root, SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Iscatterv", comm, request, [&](const Call& call) {
    return start_scatterv(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                          root);
  });
}

int SCOMM_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[],
                        MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                        int root, SCOMM_Comm comm, MPI_Info info, SCOMM_Request* request) {
  return persistent_collective("SCOMM_Scatterv_init", comm, info, request,
                               scattered_from(root, recvbuf, sendtype, recvtype),
                               [=](const Call& call, CommEntry&, TypeList t) {
                                 return start_scatterv(call, sendbuf, sendcounts, displs, t[0],
                                                       recvbuf, recvcount, t[1], root);
                               });
}

int SCOMM_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm) {
  return collective("SCOMM_Allgather", comm,
                    Signature(Operation::kAllgather)
                        .blocks(sent_block(sendbuf, sendcount, sendtype, recvcount, recvtype)),
                    CallArgs(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
                    {sendtype, recvtype}, [&](const Call& call, CommEntry& e) {
                      return start_allgather(call, e, sendbuf, sendcount, sendtype, recvbuf,
                                             recvcount, recvtype);
                    });
}

int SCOMM_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm,
                     SCOMM_Request* request) {
  return collective("SCOMM_Iallgather", comm, request, [&](const Call& call, CommEntry& e) {
    return start_allgather(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}

int SCOMM_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm, MPI_Info info,
                         SCOMM_Request* request) {
  return persistent_collective("SCOMM_Allgather_init", comm, info, request,
                               sent_unless_in_place(sendbuf, sendtype, recvtype),
                               [=](const Call& call, CommEntry& e, TypeList t) {
                                 return start_allgather(call, e, sendbuf, sendcount, t[0], recvbuf,
                                                        recvcount, t[1]);
                               });
}

int SCOMM_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     SCOMM_Comm comm) {
  return collective("SCOMM_Allgatherv", comm,
                    Signature(Operation::kAllgatherv).counts_alike(recvcounts, recvtype),
                    CallArgs(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype),
                    {sendtype, recvtype}, [&](const Call& call) {
                      return start_allgatherv(call, sendbuf, sendcount, sendtype, recvbuf,
                                              recvcounts, displs, recvtype);
                    });
}

int SCOMM_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Iallgatherv", comm, request, [&](const Call& call) {
    return start_allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                            recvtype);
  });
}

int SCOMM_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                          SCOMM_Comm comm, MPI_Info info, SCOMM_Request* request) {
  return persistent_collective("SCOMM_Allgatherv_init", comm, info, request,
                               sent_unless_in_place(sendbuf, sendtype, recvtype),
                               [=](const Call& call, CommEntry&, TypeList t) {
                                 return start_allgatherv(call, sendbuf, sendcount, t[0], recvbuf,
                                                         recvcounts, displs, t[1]);
                               });
}

int SCOMM_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm) {
  return collective("SCOMM_Alltoall", comm,
                    Signature(Operation::kAlltoall)
                        .blocks(sent_block(sendbuf, sendcount, sendtype, recvcount, recvtype)),
                    CallArgs(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype),
                    {sendtype, recvtype}, [&](const Call& call, CommEntry& e) {
                      return start_alltoall(call, e, sendbuf, sendcount, sendtype, recvbuf,
                                            recvcount, recvtype);
                    });
}

int SCOMM_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm, SCOMM_Request* request) {
  return collective("SCOMM_Ialltoall", comm, request, [&](const Call& call, CommEntry& e) {
    return start_alltoall(call, e, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}

int SCOMM_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, SCOMM_Comm comm, MPI_Info info,
                        SCOMM_Request* request) {
  return persistent_collective(
      "SCOMM_Alltoall_init", comm, info, request, sent_unless_in_place(sendbuf, sendtype, recvtype),
      [=](const Call& call, CommEntry& e, TypeList t) {
        return start_alltoall(call, e, sendbuf, sendcount, t[0], recvbuf, recvcount, t[1]);
      });
}

int SCOMM_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm) {
  return collective(
      "SCOMM_Alltoallv", comm, Signature(Operation::kAlltoallv),
      CallArgs(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype),
      {sendtype, recvtype}, [&](const Call& call) {
        return start_alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                               rdispls, recvtype);
      });
}

int SCOMM_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                     MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm,
                     SCOMM_Request* request) {
  return collective("SCOMM_Ialltoallv", comm, request, [&](const Call& call) {
    return start_alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                           rdispls, recvtype);
  });
}

int SCOMM_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                         MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype, SCOMM_Comm comm, MPI_Info info,
                         SCOMM_Request* request) {
  return persistent_collective("SCOMM_Alltoallv_init", comm, info, request,
                               sent_unless_in_place(sendbuf, sendtype, recvtype),
                               [=](const Call& call, CommEntry&, TypeList t) {
                                 return start_alltoallv(call, sendbuf, sendcounts, sdispls, t[0],
                                                        recvbuf, recvcounts, rdispls, t[1]);
                               });
}

int SCOMM_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], SCOMM_Comm comm) {
  return collective("SCOMM_Alltoallw", comm, Signature(Operation::kAlltoallw),
                    [&](const Call& call) {
                      return start_alltoallw(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                             recvcounts, rdispls, recvtypes);
                    });
}

int SCOMM_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                     const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                     const int rdispls[], const MPI_Datatype recvtypes[], SCOMM_Comm comm,
                     SCOMM_Request* request) {
  return collective("SCOMM_Ialltoallw", comm, request, [&](const Call& call) {
    return start_alltoallw(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                           rdispls, recvtypes);
  });
}

int SCOMM_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                         const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                         const int rdispls[], const MPI_Datatype recvtypes[], SCOMM_Comm comm,
                         MPI_Info info, SCOMM_Request* request) {
  const auto types_among = [=](const CommEntry& e) {
    return WTypes(sendbuf, sendtypes, recvtypes, e.comm.size(), e.comm.size());
  };
  return persistent_collective(
      "SCOMM_Alltoallw_init", comm, info, request,
      [=](const CommEntry& e) { return types_among(e).arguments(); },
      [=](const Call& call, CommEntry& e, TypeList t) {
        const WTypes w = types_among(e);
        return start_alltoallw(call, sendbuf, sendcounts, sdispls, w.send(t), recvbuf, recvcounts,
                               rdispls, w.receive(t));
      });
}

}  // extern "C"
