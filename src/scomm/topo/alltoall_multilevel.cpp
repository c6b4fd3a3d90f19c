#include "scomm/topo/alltoall_multilevel.hpp"

#include <vector>

#include "scomm/coll/alltoall_pairwise.hpp"

namespace scomm::topo {
namespace {

// The blocks one leader handles: its cluster's inputs in a row (member i's whole input at
// i * p blocks), and the cluster's outputs in a row the same way.
struct LeaderBuffers {
  coll::Slot inputs;
  coll::Slot outputs;
  std::int64_t in_block;  // elements per input block (of the input's type)
  std::int64_t out_block;
};

class Leader {
 public:
  Leader(const Levels& levels, const coll::Shape& shape, LeaderBuffers buffers)
      : levels_(levels), p_(shape.size), cluster_(levels.color(shape.rank, 0)), b_(buffers) {}

  // Packs what the cluster sends cluster `to`: block (source i, destination j), i-major, each
  // source's blocks for a run of `to`'s ranks in one copy.
  coll::Block pack_for(coll::Schedule& schedule, int to, coll::TypeId type) const {
    const std::int64_t blocks =
        std::int64_t{levels_.cluster_size(0, cluster_)} * levels_.cluster_size(0, to);
    const coll::Slot out = schedule.add_temp(type, blocks * b_.in_block);
    std::int64_t at = 0;
    for (int i = 0; i < levels_.cluster_size(0, cluster_); ++i)
      for (const Run& run : levels_.runs(0, to)) {
        const std::int64_t count = run.count * b_.in_block;
        schedule.copy(coll::Block{b_.inputs, (i * p_ + run.first) * b_.in_block, count},
                      coll::Block{out, at, count});
        at += count;
      }
    return coll::Block{out, 0, blocks * b_.in_block};
  }

  // Places what cluster `from` sent (laid out as pack_for did there) into the members' outputs.
  void place_from(coll::Schedule& schedule, int from, coll::Block packed) const {
    std::int64_t at = packed.offset;
    for (int j = 0; j < levels_.cluster_size(0, from); ++j) {
      const int source = levels_.member(0, from, j);
      for (int i = 0; i < levels_.cluster_size(0, cluster_); ++i) {
        schedule.copy(coll::Block{packed.slot, at, b_.out_block},
                      coll::Block{b_.outputs, (i * p_ + source) * b_.out_block, b_.out_block});
        at += b_.out_block;
      }
    }
  }

  // The cluster's own blocks go from its inputs to its outputs directly.
  void place_own(coll::Schedule& schedule) const {
    const int n = levels_.cluster_size(0, cluster_);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        schedule.copy(
            coll::Block{b_.inputs, (j * p_ + levels_.member(0, cluster_, i)) * b_.in_block,
                        b_.in_block},
            coll::Block{b_.outputs, (i * p_ + levels_.member(0, cluster_, j)) * b_.out_block,
                        b_.out_block});
  }

 private:
  const Levels& levels_;
  int p_;
  int cluster_;
  LeaderBuffers b_;
};

coll::Schedule leader_schedule(const Levels& levels, const coll::Shape& shape, coll::Block input,
                               coll::TypeId input_type, std::int64_t in_block,
                               std::int64_t recvcount) {
  coll::Schedule schedule;
  const int p = shape.size;
  const int cluster = levels.color(shape.rank, 0);
  const int n = levels.cluster_size(0, cluster);
  const int me = levels.index_in_cluster(shape.rank, 0);
  const LeaderBuffers buffers{
      schedule.add_temp(input_type, std::int64_t{n} * p * in_block),
      schedule.add_temp(coll::TypeId::kRecv, std::int64_t{n} * p * recvcount), in_block, recvcount};
  auto whole = [p](coll::Slot slot, int i, std::int64_t block) {
    return coll::Block{slot, i * p * block, p * block};
  };
  // Round 1: the members' inputs.
  schedule.next_round();
  for (int i = 0; i < n; ++i)
    if (i != me) schedule.receive(levels.member(0, cluster, i), whole(buffers.inputs, i, in_block));
  schedule.copy(input, whole(buffers.inputs, me, in_block));
  // Round 2: one message each way between this leader and every other one.
  const Leader leader(levels, shape, buffers);
  std::vector<coll::Block> incoming(static_cast<std::size_t>(levels.clusters(0)));
  std::vector<coll::Block> outgoing(incoming.size());
  for (int other = 0; other < levels.clusters(0); ++other) {
    if (other == cluster) continue;
    outgoing[other] = leader.pack_for(schedule, other, input_type);
    const std::int64_t count = std::int64_t{n} * levels.cluster_size(0, other) * recvcount;
    incoming[other] = coll::Block{schedule.add_temp(coll::TypeId::kRecv, count), 0, count};
  }
  schedule.next_round();
  for (int other = 0; other < levels.clusters(0); ++other) {
    if (other == cluster) continue;
    schedule.send(levels.lowest_rank(0, other), outgoing[other])
        .receive(levels.lowest_rank(0, other), incoming[other]);
  }
  leader.place_own(schedule);
  for (int other = 0; other < levels.clusters(0); ++other)
    if (other != cluster) leader.place_from(schedule, other, incoming[other]);
  // Round 3: the members' outputs.
  schedule.next_round();
  for (int i = 0; i < n; ++i)
    if (i != me) schedule.send(levels.member(0, cluster, i), whole(buffers.outputs, i, recvcount));
  schedule.copy(whole(buffers.outputs, me, recvcount),
                coll::Block{coll::kOutput, 0, p * recvcount});
  return schedule;
}

}  // namespace

coll::Schedule alltoall_multilevel(const Levels& levels, const coll::Shape& shape,
                                   std::int64_t sendcount, std::int64_t recvcount, bool in_place) {
  if (levels.depth() == 0 || levels.clusters(0) == 1)
    return coll::alltoall_pairwise(shape, sendcount, recvcount, in_place);
  const int p = shape.size;
  const coll::Block input = in_place ? coll::Block{coll::kOutput, 0, p * recvcount}
                                     : coll::Block{coll::kInput, 0, p * sendcount};
  const int leader = levels.lowest_rank(0, levels.color(shape.rank, 0));
  if (shape.rank == leader)
    return leader_schedule(levels, shape, input,
                           in_place ? coll::TypeId::kRecv : coll::TypeId::kSend,
                           in_place ? recvcount : sendcount, recvcount);
  coll::Schedule schedule;
  schedule.next_round().send(leader, input);
  schedule.next_round().receive(leader, coll::Block{coll::kOutput, 0, p * recvcount});
  return schedule;
}

}  // namespace scomm::topo
