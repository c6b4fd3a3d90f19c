#include "scomm/coll/alltoall_bruck.hpp"

#include <algorithm>

#include "scomm/coll/rank_blocks.hpp"

namespace scomm::coll {
namespace {

// Blocks with bit d set come in runs [d, 2d), [3d, 4d), ...: copies between `run` and the packed
// row, one per run of blocks (`pack`: run -> packed, else packed -> run).
void move_bit_blocks(Schedule& schedule, Slot run, Slot packed, int d, int size, std::int64_t b,
                     bool pack) {
  std::int64_t at = 0;
  for (int first = d; first < size; first += 2 * d) {
    const std::int64_t n = std::min(d, size - first) * b;
    const Block in_run{run, first * b, n}, in_packed{packed, at, n};
    if (pack)
      schedule.copy(in_run, in_packed);
    else
      schedule.copy(in_packed, in_run);
    at += n;
  }
}

// How many of the indices 0 .. size - 1 have bit d set.
int bit_blocks(int d, int size) {
  int n = 0;
  for (int first = d; first < size; first += 2 * d) n += std::min(d, size - first);
  return n;
}

}  // namespace

Schedule alltoall_bruck(const Shape& shape, std::int64_t sendcount, std::int64_t recvcount,
                        bool in_place) {
  Schedule schedule;
  const int p = shape.size, rank = shape.rank;
  const std::int64_t b = recvcount;
  const Slot run = schedule.add_temp(TypeId::kRecv, p * b);
  int largest = 0;
  for (int d = 1; d < p; d *= 2) largest = std::max(largest, bit_blocks(d, p));
  const Slot out_row = schedule.add_temp(TypeId::kRecv, largest * b);
  const Slot in_row = schedule.add_temp(TypeId::kRecv, largest * b);
  // run[i] = the block for rank + i (the input, or the output in place, in rank order).
  const RankedBuffer source = in_place ? RankedBuffer{kOutput, b} : RankedBuffer{kInput, sendcount};
  schedule.next_round();
  copy_run(schedule, RunBuffer{run, 0, b}, source, rank, p, p, false);
  for (int d = 1; d < p; d *= 2) {
    move_bit_blocks(schedule, run, out_row, d, p, b, true);  // in the previous round's steps
    const std::int64_t n = bit_blocks(d, p) * b;
    schedule.next_round()
        .receive((rank - d + p) % p, Block{in_row, 0, n})
        .send((rank + d) % p, Block{out_row, 0, n});
    move_bit_blocks(schedule, run, in_row, d, p, b, false);
  }
  // run[i] came from rank - i.
  for (int i = 0; i < p; ++i)
    schedule.copy(Block{run, i * b, b}, Block{kOutput, ((rank - i + p) % p) * b, b});
  return schedule;
}

}  // namespace scomm::coll
