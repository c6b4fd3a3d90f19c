#include <span>
#include <vector>

#include "scomm/base/error.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/reduction.hpp"

namespace scomm::coll {

p2p::Request reduce_scatter(const Call& call, const void* sendbuf, void* recvbuf,
                            const int recvcounts[], MPI_Datatype type, MPI_Op op) {
  if (recvcounts == nullptr) throw Error(ErrorClass::kArg, "null recvcounts");
  const std::vector<std::int64_t> counts(recvcounts, recvcounts + call.comm.size());
  return reduce_scatter_counts(
      call, Operation::kReduceScatter, sendbuf, recvbuf, counts,
      std::span(recvcounts, counts.size()), type, op,
      native_pair(MPI_Ireduce_scatter, MPI_Reduce_scatter, sendbuf, recvbuf, recvcounts, type, op));
}

}  // namespace scomm::coll
