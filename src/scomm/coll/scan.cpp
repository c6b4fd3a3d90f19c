#include "scomm/coll/operations.hpp"
#include "scomm/coll/reduction.hpp"
#include "scomm/coll/scan_binary_tree.hpp"
#include "scomm/coll/scan_linear.hpp"
#include "scomm/coll/scan_recursive_doubling.hpp"

namespace scomm::coll {

p2p::Request scan(const Call& call, const void* sendbuf, void* recvbuf, int count,
                  MPI_Datatype type, MPI_Op op) {
  return prefix_reduction(call, Operation::kScan, sendbuf, recvbuf, count, type, op,
                          {scan_recursive_doubling, scan_binary_tree, scan_linear},
                          native_pair(MPI_Iscan, MPI_Scan, sendbuf, recvbuf, count, type, op));
}

}  // namespace scomm::coll
