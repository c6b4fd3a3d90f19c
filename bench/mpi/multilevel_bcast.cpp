// The seed's broadcast timing application (Karonis et al. 2002, Fig. 6): for each message size,
// every rank in turn is the root of a broadcast, each followed by an acknowledgement barrier made
// of point-to-point messages (every rank sends rank 0 an ACK; rank 0 then sends each a GO), so
// that the next root starts only when everyone has the data and the barrier is the same whatever
// the broadcast. The broadcast is SCOMM_Bcast on the world as SCOMM_COLL_BCAST and SCOMM_TOPO_*
// select it: one run per variant (flat binomial, 2-level, multilevel, or the base MPI's own with
// 'native'). Rows: the broadcast's time (Pass) and the loop's per root; every rank checks the
// data it received.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments.hpp"
#include "scomm.h"

namespace scomm::bench {
namespace {

constexpr int kAckTag = 1, kGoTag = 2;

// Rank 0 takes an ACK from every other rank, then sends each a GO. Its receives and sends are
// all posted at once: one posted at a time would make each wait for a full round trip under
// SMPI, where a message moves only once its receive is posted.
void ack_barrier(MPI_Comm comm, int rank, int p, std::vector<MPI_Request>& requests) {
  char token = 0;
  if (rank != 0) {
    MPI_Send(&token, 1, MPI_CHAR, 0, kAckTag, comm);
    MPI_Recv(&token, 1, MPI_CHAR, 0, kGoTag, comm, MPI_STATUS_IGNORE);
    return;
  }
  requests.resize(static_cast<std::size_t>(p - 1));
  std::vector<char> acks(static_cast<std::size_t>(p));
  for (int i = 1; i < p; ++i)
    MPI_Irecv(&acks[static_cast<std::size_t>(i)], 1, MPI_CHAR, i, kAckTag, comm,
              &requests[static_cast<std::size_t>(i - 1)]);
  MPI_Waitall(p - 1, requests.data(), MPI_STATUSES_IGNORE);
  for (int i = 1; i < p; ++i)
    MPI_Isend(&token, 1, MPI_CHAR, i, kGoTag, comm, &requests[static_cast<std::size_t>(i - 1)]);
  MPI_Waitall(p - 1, requests.data(), MPI_STATUSES_IGNORE);
}

// What the root of a broadcast sends: differs from root to root and size to size, so that a
// rank that missed a broadcast or got the wrong root's data sees it.
char pattern(int root, int bytes, int index) {
  return static_cast<char>((root * 31 + bytes + index) % 251);
}

// `wanted` roots spread evenly over the p ranks (0: every rank).
std::vector<int> roots_of(int p, int wanted) {
  const int count = wanted > 0 ? std::min(p, wanted) : p;
  std::vector<int> roots;
  for (int i = 0; i < count; ++i)
    roots.push_back(static_cast<int>(static_cast<std::int64_t>(i) * p / count));
  return roots;
}

// One pass over the roots at one size: the loop's time on rank 0, and the broadcast alone: from
// the root's call to the last rank's return, by MPI_Wtime at each rank. That needs a global
// clock (MPI_WTIME_IS_GLOBAL), as SMPI's simulated one is; the rows say whether it was.
struct Pass {
  double loop_seconds = 0;   // per root
  double bcast_seconds = 0;  // per root, mean over roots
};

struct Loop {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, p = 0;
  std::vector<char> buffer;
  std::vector<MPI_Request> requests;   // rank 0's, in the ack barrier
  std::vector<double> calls, returns;  // per root: the root's call, this rank's return
  std::int64_t wrong = 0;              // bytes that differed from the root's, over every broadcast

  Pass run(const std::vector<int>& roots, int bytes) {
    const std::size_t n = static_cast<std::size_t>(bytes);
    calls.assign(roots.size(), 0.0);
    returns.assign(roots.size(), 0.0);
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (std::size_t k = 0; k < roots.size(); ++k) {
      const int root = roots[k];
      for (std::size_t i = 0; i < n; ++i)
        buffer[i] = rank == root ? pattern(root, bytes, static_cast<int>(i)) : char(-1);
      if (rank == root) calls[k] = MPI_Wtime();
      if (SCOMM_Bcast(buffer.data(), bytes, MPI_BYTE, root, SCOMM_COMM_WORLD) != SCOMM_SUCCESS)
        throw std::runtime_error("SCOMM_Bcast failed");
      returns[k] = MPI_Wtime();
      for (std::size_t i = 0; i < n; ++i)
        wrong += buffer[i] != pattern(root, bytes, static_cast<int>(i));
      ack_barrier(comm, rank, p, requests);
    }
    const double roots_count = static_cast<double>(roots.size());
    Pass pass{(MPI_Wtime() - start) / roots_count, 0};
    const int count = static_cast<int>(roots.size());
    MPI_Allreduce(MPI_IN_PLACE, calls.data(), count, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(MPI_IN_PLACE, returns.data(), count, MPI_DOUBLE, MPI_MAX, comm);
    for (std::size_t k = 0; k < roots.size(); ++k)
      pass.bcast_seconds += (returns[k] - calls[k]) / roots_count;
    return pass;
  }
};

bool global_clock() {
  int* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &found);
  return found && value && *value;
}

std::string setting(const char* variable) {
  const char* value = std::getenv(variable);
  return value ? value : "";
}

}  // namespace

std::vector<Row> multilevel_bcast(const MpiBenchOptions& o) {
  Loop loop;
  MPI_Comm_dup(MPI_COMM_WORLD, &loop.comm);
  MPI_Comm_rank(loop.comm, &loop.rank);
  MPI_Comm_size(loop.comm, &loop.p);
  const std::vector<int> roots = roots_of(loop.p, o.roots);
  loop.buffer.resize(static_cast<std::size_t>(o.max_bytes));
  std::vector<Row> rows;
  // Powers of 4 (--quick: of 16) from 1 B; under SMPI the network is deterministic.
  for (std::int64_t bytes = 1; bytes <= o.max_bytes; bytes *= o.quick ? 16 : 4) {
    // Warm-up: connections, schedules, MPI's internal communicators.
    loop.run(roots, static_cast<int>(bytes));
    std::vector<double> bcast, loops;
    for (int rep = 0; rep < o.reps; ++rep) {
      const Pass pass = loop.run(roots, static_cast<int>(bytes));
      bcast.push_back(pass.bcast_seconds * 1e9);
      loops.push_back(pass.loop_seconds * 1e9);
    }
    rows.push_back(
        {"multilevel-bcast",
         "Bcast " + std::to_string(bytes) + " B",
         "ns per broadcast",
         loop.p,
         summarize(bcast),
         {{"bytes", std::to_string(bytes)},
          {"roots", std::to_string(roots.size())},
          {"variant", o.variant},
          {"topology", o.topology},
          {"algorithm", setting("SCOMM_COLL_BCAST")},
          {"topo_blocks", setting("SCOMM_TOPO_BLOCKS")},
          {"global clock", global_clock() ? "yes" : "no"},
          {"ns per root with ack barrier", std::to_string(summarize(loops).median_ns)}}});
  }
  std::int64_t wrong = 0;
  MPI_Allreduce(&loop.wrong, &wrong, 1, MPI_INT64_T, MPI_SUM, loop.comm);
  MPI_Comm_free(&loop.comm);
  if (wrong != 0)
    throw std::runtime_error("multilevel-bcast: " + std::to_string(wrong) +
                             " bytes differed from the root's");
  return rows;
}

}  // namespace scomm::bench
