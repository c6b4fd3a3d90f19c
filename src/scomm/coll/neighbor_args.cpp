#include "scomm/coll/neighbor_args.hpp"

#include "scomm/base/error.hpp"

namespace scomm::coll {

const group::VirtualTopology& topology_of(const Call& call) {
  const group::VirtualTopology* topology = call.comm.topology();
  if (topology == nullptr)
    throw Error(ErrorClass::kTopology,
                "a neighborhood collective on a communicator without a virtual topology");
  return *topology;
}

ExchangeArgs neighbor_args(const void* sendbuf, MPI_Datatype sendtype, void* recvbuf,
                           MPI_Datatype recvtype) {
  check_not_in_place(sendbuf);
  return ExchangeArgs(sendbuf, 1, sendtype, recvbuf, recvtype);
}

ExchangeArgs neighbor_args(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, group::Degrees degrees) {
  ExchangeArgs args = neighbor_args(sendbuf, sendtype, recvbuf, recvtype);
  if (degrees.out > 0) check_data(sendbuf, sendcount, sendtype);
  if (degrees.in > 0) check_data(recvbuf, recvcount, recvtype);
  return args;
}

Algorithm alltoall_algorithm(const Call& call, Operation operation,
                             const group::VirtualTopology& topology) {
  const Algorithm algorithm = call.selection.choose(operation, 0, call.comm.size());
  if (algorithm == Algorithm::kNative && group::has_repeated_neighbors(topology))
    return Algorithm::kLinear;
  return algorithm;
}

NeighborVector checked_vector(const void* buffer, const int* counts, const int* displs, int degree,
                              MPI_Datatype type) {
  if (degree == 0) return {};  // the arrays may be null then
  check_vector(buffer, counts, displs, degree, type);
  const auto n = static_cast<std::size_t>(degree);
  return {std::span(counts, n), std::span(displs, n)};
}

}  // namespace scomm::coll
