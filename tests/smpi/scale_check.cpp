// Communicator creation, point-to-point and collectives at thousands of simulated ranks (SimGrid
// SMPI). `scale_check scomm` runs every step with scomm and with
// SMPI's own MPI and compares the results; `scale_check native` runs the MPI steps alone. Every
// communicator stays live until the end, so the simulator's peak memory of the two runs differs
// by what scomm holds. GoogleTest's programs run here too, but not their every-root, every-size
// sweeps, which grow with P^2 messages.
#include <malloc.h>
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../mpi/scomm_fixture.hpp"
#include "scomm.h"

namespace {

constexpr int kRowSize = 64;

// Counts mismatches; each rank prints its first few.
class Checker {
 public:
  explicit Checker(int rank) : rank_(rank) {}
  void expect(bool ok, const char* what) {
    ++checks_;
    if (ok) return;
    if (++failures_ <= 3) std::fprintf(stderr, "[rank %d] scale_check: %s differs\n", rank_, what);
  }
  int checks() const { return checks_; }
  int failures() const { return failures_; }

 private:
  int rank_;
  int checks_ = 0;
  int failures_ = 0;
};

// The calls both implementations share, with MPI's parameters, so that one workload runs on each.
struct Mpi {
  using Comm = MPI_Comm;
  static constexpr auto size = MPI_Comm_size;
  static constexpr auto rank = MPI_Comm_rank;
  static constexpr auto split = MPI_Comm_split;
  static constexpr auto bcast = MPI_Bcast;
  static constexpr auto allreduce = MPI_Allreduce;
  static constexpr auto scan = MPI_Scan;
  static constexpr auto alltoall = MPI_Alltoall;
  static constexpr auto sendrecv = MPI_Sendrecv;
  static constexpr auto free = MPI_Comm_free;
  static MPI_Status* status_ignore() { return MPI_STATUS_IGNORE; }
};

struct Scomm {
  using Comm = SCOMM_Comm;
  static constexpr auto size = SCOMM_Comm_size;
  static constexpr auto rank = SCOMM_Comm_rank;
  static constexpr auto split = SCOMM_Comm_split;
  static constexpr auto bcast = SCOMM_Bcast;
  static constexpr auto allreduce = SCOMM_Allreduce;
  static constexpr auto scan = SCOMM_Scan;
  static constexpr auto alltoall = SCOMM_Alltoall;
  static constexpr auto sendrecv = SCOMM_Sendrecv;
  static constexpr auto free = SCOMM_Comm_free;
  static SCOMM_Status* status_ignore() { return SCOMM_STATUS_IGNORE; }
};

// What one communicator computes: bcast from its last rank, allreduce sums, a ring exchange, and
// scan and alltoall where the communicator has at most kRowSize ranks (P^2 messages on the world:
// SMPI's own MPI_Scan is linear, every rank sending to every higher one).
template <class Api>
std::vector<int> collectives(typename Api::Comm comm) {
  int rank = 0, size = 0;
  Api::rank(comm, &rank);
  Api::size(comm, &size);
  const int me = world_rank();
  std::vector<int> broadcast(4);
  for (int i = 0; i < 4; ++i) broadcast[i] = rank == size - 1 ? me * 10 + i : -1;
  Api::bcast(broadcast.data(), 4, MPI_INT, size - 1, comm);
  const int mine[4] = {rank, me % 1000, 1, me};
  int sums[4];
  Api::allreduce(mine, sums, 4, MPI_INT, MPI_SUM, comm);
  int from_left = -1;
  Api::sendrecv(&me, 1, MPI_INT, (rank + 1) % size, 5, &from_left, 1, MPI_INT,
                (rank + size - 1) % size, 5, comm, Api::status_ignore());
  std::vector<int> result = broadcast;
  result.insert(result.end(), sums, sums + 4);
  result.push_back(from_left);
  if (size > kRowSize) return result;
  int prefix[4];
  Api::scan(mine, prefix, 4, MPI_INT, MPI_SUM, comm);
  result.insert(result.end(), prefix, prefix + 4);
  std::vector<int> out(static_cast<std::size_t>(size)), in(out.size());
  for (int peer = 0; peer < size; ++peer) out[peer] = me * 100000 + peer;
  Api::alltoall(out.data(), 1, MPI_INT, in.data(), 1, MPI_INT, comm);
  result.insert(result.end(), in.begin(), in.end());
  return result;
}

// The communicators of the workload, made the same way by both implementations where they can.
template <class Api>
struct Comms {
  typename Api::Comm world, rows, halves, dup, evens;
};

MPI_Group evens_of_mpi_world() {
  MPI_Group world, evens;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int range[1][3] = {{0, world_size() - 1, 2}};
  MPI_Group_range_incl(world, 1, range, &evens);
  MPI_Group_free(&world);
  return evens;
}

Comms<Mpi> create_mpi() {
  const int me = world_rank(), p = world_size();
  Comms<Mpi> c{MPI_COMM_WORLD, MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL};
  MPI_Comm_split(MPI_COMM_WORLD, me / kRowSize, me, &c.rows);
  MPI_Comm_split(MPI_COMM_WORLD, me < p / 2 ? 0 : 1, p - me, &c.halves);
  MPI_Comm_dup(MPI_COMM_WORLD, &c.dup);
  if (me % 2 == 0) {
    MPI_Group evens = evens_of_mpi_world();
    MPI_Comm_create_group(MPI_COMM_WORLD, evens, 3, &c.evens);
    MPI_Group_free(&evens);
  }
  return c;
}

// scomm makes the evens twice: locally as a range and collectively from a group; `evens` is the
// range, the group's result is checked and freed here.
Comms<Scomm> create_scomm(Checker& check, const std::vector<int>& mpi_evens) {
  const int me = world_rank(), p = world_size();
  Comms<Scomm> c{SCOMM_COMM_WORLD, SCOMM_COMM_NULL, SCOMM_COMM_NULL, SCOMM_COMM_NULL,
                 SCOMM_COMM_NULL};
  check.expect(SCOMM_Comm_split(SCOMM_COMM_WORLD, me / kRowSize, me, &c.rows) == SCOMM_SUCCESS,
               "SCOMM_Comm_split (rows) status");
  check.expect(
      SCOMM_Comm_split(SCOMM_COMM_WORLD, me < p / 2 ? 0 : 1, p - me, &c.halves) == SCOMM_SUCCESS,
      "SCOMM_Comm_split (halves) status");
  check.expect(SCOMM_Comm_dup(SCOMM_COMM_WORLD, &c.dup) == SCOMM_SUCCESS, "SCOMM_Comm_dup status");
  check.expect(SCOMM_Comm_create_range(SCOMM_COMM_WORLD, 0, p - 1, 2, &c.evens) == SCOMM_SUCCESS,
               "SCOMM_Comm_create_range status");
  if (me % 2 != 0) return c;
  SCOMM_Group world, evens;
  SCOMM_Comm_group(SCOMM_COMM_WORLD, &world);
  int range[1][3] = {{0, p - 1, 2}};
  SCOMM_Group_range_incl(world, 1, range, &evens);
  SCOMM_Comm from_group = SCOMM_COMM_NULL;
  check.expect(SCOMM_Comm_create_group(SCOMM_COMM_WORLD, evens, 3, &from_group) == SCOMM_SUCCESS,
               "SCOMM_Comm_create_group status");
  check.expect(members_of(from_group) == mpi_evens, "create_group members");
  check.expect(SCOMM_Comm_free(&from_group) == SCOMM_SUCCESS && from_group == SCOMM_COMM_NULL,
               "SCOMM_Comm_free (create_group)");
  SCOMM_Group_free(&evens);
  SCOMM_Group_free(&world);
  return c;
}

// Messages with the same tag and peers on the world and on its dup, received in the opposite
// order, each arrive on their own communicator.
void check_separation(Checker& check, SCOMM_Comm dup) {
  const int me = world_rank(), p = world_size();
  const int right = (me + 1) % p, left = (me + p - 1) % p;
  const int on_dup = 1000000 + me, on_world = 2000000 + me;
  SCOMM_Request sends[2];
  SCOMM_Isend(&on_dup, 1, MPI_INT, right, 9, dup, &sends[0]);
  SCOMM_Isend(&on_world, 1, MPI_INT, right, 9, SCOMM_COMM_WORLD, &sends[1]);
  int got_world = -1, got_dup = -1;
  SCOMM_Recv(&got_world, 1, MPI_INT, left, 9, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE);
  SCOMM_Recv(&got_dup, 1, MPI_INT, left, 9, dup, SCOMM_STATUS_IGNORE);
  SCOMM_Waitall(2, sends, SCOMM_STATUSES_IGNORE);
  check.expect(got_world == 2000000 + left && got_dup == 1000000 + left, "message separation");
}

template <class Api>
std::vector<std::vector<int>> all_collectives(const Comms<Api>& c, typename Api::Comm null) {
  std::vector<std::vector<int>> results;
  for (auto comm : {c.world, c.rows, c.halves, c.dup, c.evens})
    results.push_back(comm == null ? std::vector<int>{} : collectives<Api>(comm));
  return results;
}

// The simulation's heap in use (every simulated rank shares the process's malloc), read by rank 0
// once every rank has reached this point and before any goes on: at the peak, all state is live.
long heap_in_use_together() {
  MPI_Barrier(MPI_COMM_WORLD);
  long bytes = 0;
  if (world_rank() == 0) {
    const struct mallinfo2 info = mallinfo2();
    bytes = static_cast<long>(info.uordblks + info.hblkhd);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return bytes;
}

void check_scomm(Checker& check, const Comms<Mpi>& mpi, long& peak_heap) {
  const std::vector<int> mpi_evens =
      mpi.evens == MPI_COMM_NULL ? std::vector<int>{} : members_of_mpi(mpi.evens);
  Comms<Scomm> c = create_scomm(check, mpi_evens);
  check.expect(members_of(c.rows) == members_of_mpi(mpi.rows), "split members (rows)");
  check.expect(members_of(c.halves) == members_of_mpi(mpi.halves), "split members (halves)");
  check.expect((c.evens == SCOMM_COMM_NULL ? std::vector<int>{} : members_of(c.evens)) == mpi_evens,
               "create_range members");
  check.expect(
      all_collectives<Scomm>(c, SCOMM_COMM_NULL) == all_collectives<Mpi>(mpi, MPI_COMM_NULL),
      "collective results (bcast, allreduce, scan, ring, alltoall)");
  check_separation(check, c.dup);
  peak_heap = heap_in_use_together();  // the peak: every communicator of both live
  for (SCOMM_Comm* comm : {&c.rows, &c.halves, &c.dup, &c.evens})
    if (*comm != SCOMM_COMM_NULL)
      check.expect(SCOMM_Comm_free(comm) == SCOMM_SUCCESS && *comm == SCOMM_COMM_NULL,
                   "SCOMM_Comm_free");
}

void free_mpi(Comms<Mpi>& c) {
  for (MPI_Comm* comm : {&c.rows, &c.halves, &c.dup, &c.evens})
    if (*comm != MPI_COMM_NULL) MPI_Comm_free(comm);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const bool with_scomm = argc > 1 && std::strcmp(argv[1], "scomm") == 0;
  if (argc != 2 || (!with_scomm && std::strcmp(argv[1], "native") != 0)) {
    if (world_rank() == 0) std::fprintf(stderr, "usage: scale_check scomm|native\n");
    MPI_Finalize();
    return 2;
  }
  Checker check(world_rank());
  const long start_heap = heap_in_use_together();
  Comms<Mpi> mpi = create_mpi();
  long peak_heap = 0;
  if (with_scomm) {
    check.expect(SCOMM_Init() == SCOMM_SUCCESS, "SCOMM_Init status");
    check_scomm(check, mpi, peak_heap);
    check.expect(SCOMM_Finalize() == SCOMM_SUCCESS, "SCOMM_Finalize status");
  } else {
    all_collectives<Mpi>(mpi, MPI_COMM_NULL);
    peak_heap = heap_in_use_together();
  }
  free_mpi(mpi);
  int counts[2] = {check.checks(), check.failures()}, totals[2] = {0, 0};
  MPI_Reduce(counts, totals, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (world_rank() == 0)
    std::printf(
        "scale_check %s: %d ranks, %d checks, %d failed; heap %ld B after MPI_Init, %ld B "
        "at the peak\n",
        argv[1], world_size(), totals[0], totals[1], start_heap, peak_heap);
  MPI_Finalize();
  return totals[1] == 0 || world_rank() != 0 ? 0 : 1;
}
