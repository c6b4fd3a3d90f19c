#include "scomm/coll/data_args.hpp"
#include "scomm/topo/gather_multilevel.hpp"
#include "scomm/topo/operations.hpp"

namespace scomm::topo {

p2p::Request gather(const coll::Call& call, const Network& network, const void* sendbuf,
                    int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root) {
  const coll::RootedArgs args(call, root, coll::Rooted::kGather, sendbuf, sendcount, sendtype,
                              recvbuf, recvcount, recvtype);
  const bool at_root = args.at_root(), in_place = args.in_place();
  args.check_root_side(call, recvbuf, recvcount, recvtype);
  const coll::Shape shape = call.shape(root);
  const std::int64_t bytes =
      at_root ? coll::bytes_of(recvcount, recvtype) : coll::bytes_of(sendcount, sendtype);
  return coll::launch(
      call,
      coll::ScheduleKey{coll::Operation::kGather, coll::Algorithm::kMultilevel, root, in_place,
                        sendcount, at_root ? recvcount : 0, false, bytes},
      [&] {
        return gather_multilevel(network.levels(), network.costs(), shape, sendcount, recvcount,
                                 bytes, in_place);
      },
      args.binding());
}

}  // namespace scomm::topo
