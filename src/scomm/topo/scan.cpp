#include "scomm/coll/reduction.hpp"
#include "scomm/topo/operations.hpp"
#include "scomm/topo/scan_multilevel.hpp"

namespace scomm::topo {
namespace {

using PrefixBuilder = coll::Schedule (*)(const Levels&, const LevelCosts&, const coll::Shape&,
                                         std::int64_t, std::int64_t, bool);

p2p::Request prefix(const coll::Call& call, coll::Operation operation, PrefixBuilder build,
                    const Network& network, const void* sendbuf, void* recvbuf, int count,
                    MPI_Datatype type, MPI_Op op) {
  coll::check_reduction(sendbuf, count, recvbuf, count, type, op);
  const coll::Shape shape = call.shape();
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const std::int64_t bytes = coll::bytes_of(count, type);
  return coll::launch(
      call,
      coll::ScheduleKey{operation, coll::Algorithm::kMultilevel, 0, in_place, count, 0, false,
                        bytes},
      [&] { return build(network.levels(), network.costs(), shape, count, bytes, in_place); },
      coll::reduction_binding(sendbuf, recvbuf, type, op));
}

}  // namespace

p2p::Request scan(const coll::Call& call, const Network& network, const void* sendbuf,
                  void* recvbuf, int count, MPI_Datatype type, MPI_Op op) {
  return prefix(call, coll::Operation::kScan, scan_multilevel, network, sendbuf, recvbuf, count,
                type, op);
}

p2p::Request exscan(const coll::Call& call, const Network& network, const void* sendbuf,
                    void* recvbuf, int count, MPI_Datatype type, MPI_Op op) {
  return prefix(call, coll::Operation::kExscan, exscan_multilevel, network, sendbuf, recvbuf, count,
                type, op);
}

}  // namespace scomm::topo
