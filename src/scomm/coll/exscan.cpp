#include "scomm/coll/operations.hpp"
#include "scomm/coll/reduction.hpp"
#include "scomm/coll/scan_binary_tree.hpp"
#include "scomm/coll/scan_linear.hpp"
#include "scomm/coll/scan_recursive_doubling.hpp"

namespace scomm::coll {

// Rank 0's receive buffer is left as it is (MPI leaves its content undefined).
p2p::Request exscan(const Call& call, const void* sendbuf, void* recvbuf, int count,
                    MPI_Datatype type, MPI_Op op) {
  return prefix_reduction(call, Operation::kExscan, sendbuf, recvbuf, count, type, op,
                          {exscan_recursive_doubling, exscan_binary_tree, exscan_linear},
                          native_pair(MPI_Iexscan, MPI_Exscan, sendbuf, recvbuf, count, type, op));
}

}  // namespace scomm::coll
