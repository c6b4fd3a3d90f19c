// The base MPI's resident memory per communicator: COUNT live MPI_Comm_dup or odd/even
// MPI_Comm_split communicators of MPI_COMM_WORLD (rss.hpp). Built by CMake against the
// configured MPI and by scripts/bench_memory.sh against each installed one.
//
//   mpirun -n P mpi-comm-rss {dup|split} COUNT
#include "rss.hpp"

namespace {

MPI_Comm create(const std::string& mode, int rank) {
  MPI_Comm comm = MPI_COMM_NULL;
  if (mode == "dup")
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  else
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &comm);
  return comm;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const auto args = scomm::bench::rss::parse(argc, argv, "dup|split");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // One communicator first, kept: what the first creation initializes once is not per
  // communicator.
  std::vector<MPI_Comm> comms{create(args.mode, rank)};
  MPI_Barrier(MPI_COMM_WORLD);
  const long before = scomm::bench::rss::resident_bytes();
  for (int i = 0; i < args.count; ++i) comms.push_back(create(args.mode, rank));
  MPI_Barrier(MPI_COMM_WORLD);
  const long growth = scomm::bench::rss::resident_bytes() - before;
  scomm::bench::rss::report("mpi", args, growth, 0);
  for (MPI_Comm& comm : comms) MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
