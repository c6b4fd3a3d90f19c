// The halves of RBC's split experiments: world ranks [0, ceil(p/2)) and the rest.
#pragma once

#include <mpi.h>

namespace scomm::bench {

struct WorldHalf {
  int p = 0, rank = 0;
  int color = 0;            // 0: the lower half
  int first = 0, last = 0;  // this rank's half, in world ranks

  int size() const { return last - first + 1; }

  static WorldHalf mine() {
    WorldHalf half;
    MPI_Comm_size(MPI_COMM_WORLD, &half.p);
    MPI_Comm_rank(MPI_COMM_WORLD, &half.rank);
    const int lower = (half.p + 1) / 2;
    half.color = half.rank < lower ? 0 : 1;
    half.first = half.color == 0 ? 0 : lower;
    half.last = half.color == 0 ? lower - 1 : half.p - 1;
    return half;
  }
};

}  // namespace scomm::bench
