// RBC's experiment E3: split the world into halves and broadcast in each half, nonblocking: a
// local range creation + SCOMM_Ibcast + wait against MPI_Comm_split + MPI_Ibcast + MPI_Wait (the
// communicators freed after each round), 8 B to 64 KiB, repetitions alternating.
#include "comparison.hpp"
#include "experiments.hpp"
#include "scomm.h"
#include "world_half.hpp"

namespace scomm::bench {

std::vector<Row> split_ibcast(const MpiBenchOptions& o) {
  const WorldHalf half = WorldHalf::mine();
  std::vector<char> buffer(65536);
  int count = 0;
  const auto ours = [&] {
    SCOMM_Comm mine = SCOMM_COMM_NULL;
    SCOMM_Comm_create_range(SCOMM_COMM_WORLD, half.first, half.last, 1, &mine);
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    SCOMM_Ibcast(buffer.data(), count, MPI_BYTE, 0, mine, &request);
    SCOMM_Wait(&request, SCOMM_STATUS_IGNORE);
    SCOMM_Comm_free(&mine);
  };
  const auto theirs = [&] {
    MPI_Comm mine;
    MPI_Comm_split(MPI_COMM_WORLD, half.color, half.rank, &mine);
    MPI_Request request;
    MPI_Ibcast(buffer.data(), count, MPI_BYTE, 0, mine, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Comm_free(&mine);
  };
  std::vector<Row> rows;
  for (const int bytes : {8, 64, 512, 1024, 8192, 65536}) {
    if (o.quick && bytes > 8192) break;
    count = bytes;
    const int iterations = iterations_for(o.quick ? 2e5 : 1e7, 1000, theirs);
    add_comparison(rows, "split-ibcast", "split + Ibcast " + std::to_string(bytes) + " B",
                   "ns per split+ibcast+wait+free", interleaved(o.reps, iterations, ours, theirs),
                   {{"bytes", std::to_string(bytes)}});
  }
  return rows;
}

}  // namespace scomm::bench
