#include "scomm/coll/data_args.hpp"
#include "scomm/topo/operations.hpp"
#include "scomm/topo/scatter_multilevel.hpp"

namespace scomm::topo {

p2p::Request scatter(const coll::Call& call, const Network& network, const void* sendbuf,
                     int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root) {
  const coll::RootedArgs args(call, root, coll::Rooted::kScatter, sendbuf, sendcount, sendtype,
                              recvbuf, recvcount, recvtype);
  const bool at_root = args.at_root(), in_place = args.in_place();
  args.check_root_side(call, sendbuf, sendcount, sendtype);
  const coll::Shape shape = call.shape(root);
  const std::int64_t bytes =
      at_root ? coll::bytes_of(sendcount, sendtype) : coll::bytes_of(recvcount, recvtype);
  return coll::launch(
      call,
      coll::ScheduleKey{coll::Operation::kScatter, coll::Algorithm::kMultilevel, root, in_place,
                        recvcount, at_root ? sendcount : 0, false, bytes},
      [&] {
        return scatter_multilevel(network.levels(), network.costs(), shape, sendcount, recvcount,
                                  bytes, in_place);
      },
      args.binding());
}

}  // namespace scomm::topo
