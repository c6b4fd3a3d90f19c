// Uses the installed C++ interface in a one-process MPI job: a local range of the world and an
// allreduce on it.
#include <cstdio>
#include <scomm.hpp>

int main(int argc, char** argv) {
  scomm::Session session(argc, argv);
  const scomm::Communicator world = scomm::Communicator::world();
  const scomm::Communicator all = world.create_range(0, world.size() - 1);
  const int sum = all.allreduce(world.rank() + 1, MPI_SUM);
  std::printf("consumer (C++): allreduce over %d rank(s) gives %d\n", all.size(), sum);
  return sum == all.size() * (all.size() + 1) / 2 ? 0 : 1;
}
