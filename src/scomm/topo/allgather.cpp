#include "scomm/coll/data_args.hpp"
#include "scomm/topo/allgather_multilevel.hpp"
#include "scomm/topo/operations.hpp"

namespace scomm::topo {

p2p::Request allgather(const coll::Call& call, const Network& network, const void* sendbuf,
                       int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype) {
  const coll::ExchangeArgs args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  const bool in_place = args.in_place();
  const coll::Shape shape = call.shape();
  const std::int64_t bytes = coll::bytes_of(recvcount, recvtype);
  return coll::launch(
      call,
      coll::ScheduleKey{coll::Operation::kAllgather, coll::Algorithm::kMultilevel, 0, in_place,
                        sendcount, recvcount, false, bytes},
      [&] {
        return allgather_multilevel(network.levels(), network.costs(), shape, sendcount, recvcount,
                                    bytes, in_place);
      },
      args.binding());
}

}  // namespace scomm::topo
