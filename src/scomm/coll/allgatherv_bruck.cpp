#include "scomm/coll/allgatherv_bruck.hpp"

#include <algorithm>
#include <vector>

namespace scomm::coll {

Schedule allgatherv_bruck(const Shape& shape, std::int64_t sendcount, std::span<const int> counts,
                          std::span<const int> displs, bool in_place) {
  Schedule schedule;
  const int p = shape.size, rank = shape.rank;
  const auto block_of_rank = [&](int r) {
    return Block{kOutput, displs[static_cast<std::size_t>(r)], counts[static_cast<std::size_t>(r)]};
  };
  // start[i]: where the block of rank (rank + i) % p begins in the run; start[p]: its length.
  std::vector<std::int64_t> start(static_cast<std::size_t>(p) + 1, 0);
  for (int i = 0; i < p; ++i)
    start[static_cast<std::size_t>(i) + 1] =
        start[static_cast<std::size_t>(i)] + counts[static_cast<std::size_t>((rank + i) % p)];
  const auto run_blocks = [&](Slot run, int first, int n) {
    const std::int64_t from = start[static_cast<std::size_t>(first)];
    return Block{run, from, start[static_cast<std::size_t>(first + n)] - from};
  };
  const Slot run = schedule.add_temp(TypeId::kRecv, start.back());
  const Block own = in_place ? block_of_rank(rank) : Block{kInput, 0, sendcount};
  schedule.next_round().copy(own, run_blocks(run, 0, 1));
  for (int d = 1; d < p; d *= 2) {
    const int n = std::min(d, p - d);
    schedule.next_round()
        .receive((rank + d) % p, run_blocks(run, d, n))
        .send((rank - d + p) % p, run_blocks(run, 0, n));
  }
  for (int i = in_place ? 1 : 0; i < p; ++i)
    schedule.copy(run_blocks(run, i, 1), block_of_rank((rank + i) % p));
  return schedule;
}

}  // namespace scomm::coll
