#include "scomm/coll/alltoall_pairwise.hpp"

#include "scomm/coll/rank_blocks.hpp"

namespace scomm::coll {

std::vector<Exchange> pairwise_exchanges(int rank, int size, bool symmetric) {
  std::vector<Exchange> rounds;
  const bool pow2 = (size & (size - 1)) == 0;
  if (pow2) {
    for (int k = 1; k < size; ++k) rounds.push_back({rank ^ k, rank ^ k});
  } else if (symmetric) {
    // Round k pairs r with k - r: an involution, and over the p rounds every rank meets every
    // other once (and itself once, left out).
    for (int k = 0; k < size; ++k) {
      const int partner = (k - rank + size) % size;
      if (partner != rank) rounds.push_back({partner, partner});
    }
  } else {
    for (int k = 1; k < size; ++k) rounds.push_back({(rank + k) % size, (rank - k + size) % size});
  }
  return rounds;
}

Schedule alltoall_pairwise(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                           bool in_place) {
  Schedule schedule;
  const RankedBuffer input{kInput, sendcount}, output{kOutput, recvcount};
  if (!in_place)
    schedule.next_round().copy(ranked_blocks(input, shape.rank, 1),
                               ranked_blocks(output, shape.rank, 1));
  const Block incoming =
      in_place ? Block{schedule.add_temp(TypeId::kRecv, recvcount), 0, recvcount} : Block{};
  for (const Exchange& e : pairwise_exchanges(shape.rank, shape.size, in_place)) {
    schedule.next_round();
    if (!in_place) {
      schedule.receive(e.from, ranked_blocks(output, e.from, 1))
          .send(e.to, ranked_blocks(input, e.to, 1));
      continue;
    }
    schedule.receive(e.from, incoming)
        .send(e.to, ranked_blocks(output, e.to, 1))
        .copy(incoming, ranked_blocks(output, e.from, 1));
  }
  return schedule;
}

}  // namespace scomm::coll
