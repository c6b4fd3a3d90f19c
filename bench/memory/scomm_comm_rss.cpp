// scomm's resident memory per communicator, measured as mpi_comm_rss.cpp measures the base
// MPI's: COUNT live communicators from SCOMM_Comm_dup, odd/even SCOMM_Comm_split, or a chain of
// SCOMM_Comm_create_range (each the whole of the previous one: local creation, with a block
// allocation every SCOMM_DERIVE_BITS levels). Also reports what SCOMM_Init itself adds.
//
//   mpirun -n P scomm-comm-rss {dup|split|range} COUNT
#include <scomm.h>

#include "rss.hpp"

namespace {

SCOMM_Comm create(const std::string& mode, SCOMM_Comm previous, int rank) {
  SCOMM_Comm comm = SCOMM_COMM_NULL;
  if (mode == "dup") {
    SCOMM_Comm_dup(SCOMM_COMM_WORLD, &comm);
  } else if (mode == "split") {
    SCOMM_Comm_split(SCOMM_COMM_WORLD, rank % 2, rank, &comm);
  } else {
    int size = 0;
    SCOMM_Comm_size(previous, &size);
    SCOMM_Comm_create_range(previous, 0, size - 1, 1, &comm);
  }
  return comm;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const auto args = scomm::bench::rss::parse(argc, argv, "dup|split|range");
  const long before_init = scomm::bench::rss::resident_bytes();
  SCOMM_Init();
  const long fixed = scomm::bench::rss::resident_bytes() - before_init;
  int rank = 0;
  SCOMM_Comm_rank(SCOMM_COMM_WORLD, &rank);
  std::vector<SCOMM_Comm> comms{create(args.mode, SCOMM_COMM_WORLD, rank)};
  MPI_Barrier(MPI_COMM_WORLD);
  const long before = scomm::bench::rss::resident_bytes();
  for (int i = 0; i < args.count; ++i) comms.push_back(create(args.mode, comms.back(), rank));
  MPI_Barrier(MPI_COMM_WORLD);
  const long growth = scomm::bench::rss::resident_bytes() - before;
  scomm::bench::rss::report("scomm", args, growth, fixed);
  // Children before parents (the chain of ranges).
  for (auto it = comms.rbegin(); it != comms.rend(); ++it) SCOMM_Comm_free(&*it);
  SCOMM_Finalize();
  MPI_Finalize();
  return 0;
}
