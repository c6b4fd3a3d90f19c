// Multilevel alltoall by leaders of the slowest level: every rank hands its whole input to the
// lowest rank of its level-0 cluster, the leaders swap what each cluster sends each other one in
// one message per ordered pair of clusters, and every leader hands each member of its cluster
// its whole output. Level 0 carries clusters(0) (clusters(0) - 1) messages instead of up to
// p (p - 1), each rank sends and receives one message: the choice where level 0's latency
// dominates. A leader copies each block of its cluster once, O(cluster size x p) local steps.
// Without levels, or with one cluster at level 0, it is the flat pairwise exchange
// (coll/alltoall_pairwise.hpp).
#pragma once

#include <cstdint>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

// Sends block r of the input (r * sendcount elements of the send type) to rank r, which keeps it
// as block `rank` of its output (recvcount elements of the receive type). `in_place`: the input
// is the output (blocks of recvcount).
coll::Schedule alltoall_multilevel(const Levels& levels, const coll::Shape& shape,
                                   std::int64_t sendcount, std::int64_t recvcount, bool in_place);

}  // namespace scomm::topo
