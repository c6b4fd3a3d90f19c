#include "scomm/coll/allgather_bruck.hpp"

#include <algorithm>

#include "scomm/coll/rank_blocks.hpp"

namespace scomm::coll {

Schedule allgather_bruck(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                         bool in_place) {
  Schedule schedule;
  const int p = shape.size, rank = shape.rank;
  const std::int64_t b = recvcount;
  // run[i] = the block of rank (rank + i) % p.
  const Slot run = schedule.add_temp(TypeId::kRecv, p * b);
  const RankedBuffer output{kOutput, b};
  const Block own = in_place ? ranked_blocks(output, rank, 1) : Block{kInput, 0, sendcount};
  schedule.next_round().copy(own, Block{run, 0, b});
  for (int d = 1; d < p; d *= 2) {
    const int n = std::min(d, p - d);
    schedule.next_round()
        .receive((rank + d) % p, Block{run, d * b, n * b})
        .send((rank - d + p) % p, Block{run, 0, n * b});
  }
  copy_run(schedule, RunBuffer{run, 0, b}, output, rank, p, p, true);
  return schedule;
}

}  // namespace scomm::coll
