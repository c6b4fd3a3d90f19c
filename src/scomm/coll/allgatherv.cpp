#include <cstdint>
#include <numeric>
#include <span>

#include "scomm/coll/allgatherv_bruck.hpp"
#include "scomm/coll/allgatherv_linear.hpp"
#include "scomm/coll/allgatherv_ring.hpp"
#include "scomm/coll/data_args.hpp"
#include "scomm/coll/operations.hpp"

namespace scomm::coll {

// As allgather, with every rank's count and displacement (the same arrays at every rank, part of
// the cache's key).
p2p::Request allgatherv(const Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                        void* recvbuf, const int* recvcounts, const int* displs,
                        MPI_Datatype recvtype) {
  const ExchangeArgs args(sendbuf, sendcount, sendtype, recvbuf, recvtype);
  const bool in_place = args.in_place();
  const int p = call.comm.size();
  if (!in_place) check_data(sendbuf, sendcount, sendtype);
  check_vector(recvbuf, recvcounts, displs, p, recvtype);
  const Shape shape = call.shape();
  const auto n = static_cast<std::size_t>(p);
  const std::span counts(recvcounts, n), offsets(displs, n);
  const std::int64_t total = std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
  const Algorithm algorithm = call.choose(Operation::kAllgatherv, bytes_of(total, recvtype), p);
  if (algorithm == Algorithm::kNative)
    return launch_native(call, MPI_Iallgatherv, MPI_Allgatherv, sendbuf, sendcount, sendtype,
                         recvbuf, recvcounts, displs, recvtype);
  return launch(
      call, ScheduleKey{Operation::kAllgatherv, algorithm, 0, in_place, sendcount, 0},
      {counts, offsets},
      [&] {
        if (algorithm == Algorithm::kLinear)
          return allgatherv_linear(shape, sendcount, counts, offsets, in_place);
        if (algorithm == Algorithm::kBruck)
          return allgatherv_bruck(shape, sendcount, counts, offsets, in_place);
        return allgatherv_ring(shape, sendcount, counts, offsets, in_place);
      },
      args.binding());
}

}  // namespace scomm::coll
