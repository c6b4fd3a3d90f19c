#include "scomm/coll/data_args.hpp"
#include "scomm/topo/alltoall_multilevel.hpp"
#include "scomm/topo/operations.hpp"

namespace scomm::topo {

p2p::Request alltoall(const coll::Call& call, const Network& network, const void* sendbuf,
                      int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype) {
  const coll::ExchangeArgs args(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  const bool in_place = args.in_place();
  const coll::Shape shape = call.shape();
  return coll::launch(
      call,
      coll::ScheduleKey{coll::Operation::kAlltoall, coll::Algorithm::kMultilevel, 0, in_place,
                        sendcount, recvcount},
      [&] { return alltoall_multilevel(network.levels(), shape, sendcount, recvcount, in_place); },
      args.binding());
}

}  // namespace scomm::topo
