#include <vector>

#include "scomm/coll/operations.hpp"
#include "scomm/coll/reduction.hpp"

namespace scomm::coll {

p2p::Request reduce_scatter_block(const Call& call, const void* sendbuf, void* recvbuf,
                                  int recvcount, MPI_Datatype type, MPI_Op op) {
  const std::vector<std::int64_t> counts(static_cast<std::size_t>(call.comm.size()), recvcount);
  return reduce_scatter_counts(call, Operation::kReduceScatterBlock, sendbuf, recvbuf, counts, {},
                               type, op,
                               native_pair(MPI_Ireduce_scatter_block, MPI_Reduce_scatter_block,
                                           sendbuf, recvbuf, recvcount, type, op));
}

}  // namespace scomm::coll
