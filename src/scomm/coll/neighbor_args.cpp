#include "scomm/coll/neighbor_args.hpp"

#include "scomm/base/error.hpp"

namespace scomm::coll {
namespace {

const group::VirtualTopology& topology_of(const Call& call) {
  const group::VirtualTopology* topology = call.comm.topology();
  if (topology == nullptr)
    throw Error(ErrorClass::kTopology,
                "a neighborhood collective on a communicator without a virtual topology");
  return *topology;
}

// The selection's algorithm, except that a "native" all-to-all (either form) runs scomm's
// schedule where the neighbors name one process twice on a side (group::has_repeated_neighbors,
// the same at every member). There the base MPIs' own have matched the wrong blocks, as the tests
// saw: Open MPI 4.1's nonblocking ones deliver block s into block s, not s ^ 1, on a grid
// (open-mpi/ompi#14430, fixed after 5.0), and MPICH 4.0's blocking ones match a graph's repeated
// edges and a grid's dimensions of 1 in other orders than MPI-4.1's (pmodels/mpich#7945), and
// its MPI_Neighbor_alltoallw there, blocks of two datatypes going to one process, now and then
// never returns (seen at 2 processes under load).
Algorithm algorithm_for(const Call& call, Operation operation,
                        const group::VirtualTopology& topology) {
  const Algorithm algorithm = call.choose(operation, 0, call.comm.size());
  const bool all_to_all = operation == Operation::kNeighborAlltoall ||
                          operation == Operation::kNeighborAlltoallv ||
                          operation == Operation::kNeighborAlltoallw;
  if (algorithm == Algorithm::kNative && all_to_all && group::has_repeated_neighbors(topology))
    return Algorithm::kLinear;
  return algorithm;
}

}  // namespace

NeighborCall::NeighborCall(const Call& call, Operation operation)
    : call_(call),
      operation_(operation),
      topology_(topology_of(call)),
      degrees_(group::degrees_of(topology_)),
      algorithm_(algorithm_for(call, operation, topology_)) {}

// One buffer for both sides aliases nothing by itself: the v- and w-forms' blocks lie where their
// displacements say, and zero counts or degrees name no memory (both MPIs accept them).
ExchangeArgs NeighborCall::args(const void* sendbuf, MPI_Datatype sendtype, void* recvbuf,
                                MPI_Datatype recvtype) const {
  check_not_in_place(sendbuf);
  return ExchangeArgs(sendbuf, std::int64_t{0}, sendtype, recvbuf, recvtype);
}

ExchangeArgs NeighborCall::args(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype) const {
  ExchangeArgs checked = args(sendbuf, sendtype, recvbuf, recvtype);
  check_side(sendbuf, sendcount, sendtype, degrees_.out);
  check_side(recvbuf, recvcount, recvtype, degrees_.in);
  // The first blocks of both sides start at their buffers: one buffer with data on both sides
  // overlaps.
  if (sendcount > 0 && degrees_.out > 0 && recvcount > 0 && degrees_.in > 0)
    check_not_aliased(sendbuf, recvbuf, sendcount);
  return checked;
}

void check_side(const void* buffer, std::int64_t count, MPI_Datatype type, int degree) {
  if (degree > 0)
    check_data(buffer, count, type);
  else
    check_count_and_type(count, type);
}

NeighborVector checked_vector(const void* buffer, const int* counts, const int* displs, int degree,
                              MPI_Datatype type) {
  if (degree == 0) {  // the arrays may be null then
    check_count_and_type(0, type);
    return {};
  }
  check_vector(buffer, counts, displs, degree, type);
  const auto n = static_cast<std::size_t>(degree);
  return {std::span(counts, n), std::span(displs, n)};
}

}  // namespace scomm::coll
