// C++ objects that outlive scomm::Session -- a communicator, a request, a persistent request and
// a matched message never received -- are destroyed after MPI_Finalize: their destructors must do
// no harm (MPI aborts the job where anything calls it after finalizing).
#include <mpi.h>

#include <cstdio>
#include <optional>
#include <vector>

#include "scomm.hpp"

int main(int argc, char** argv) {
  std::optional<scomm::Communicator> dup;
  std::optional<scomm::Request> request;
  std::optional<scomm::PersistentRequest> persistent;
  std::optional<scomm::Message> message;
  std::vector<int> buffer(4, 0);
  int rank = -1;
  {
    scomm::Session session(argc, argv);
    const scomm::Communicator world = scomm::Communicator::world();
    rank = world.rank();
    dup.emplace(world.dup());
    request.emplace(dup->irecv(buffer, SCOMM_ANY_SOURCE, 5));  // never sent: pending at the end
    persistent.emplace(dup->send_init(buffer, rank, 6));
    // To the right neighbor, small, so that the send completes eagerly (MPICH holds a message to
    // oneself until it is received), then matched from the left and never received.
    const int size = world.size();
    const std::vector<int> sent{1, 2, 3};
    dup->send(sent, (rank + 1) % size, 7);
    message.emplace(dup->mprobe((rank + size - 1) % size, 7));
  }  // SCOMM_Finalize and MPI_Finalize
  int finalized = 0;
  MPI_Finalized(&finalized);
  std::printf("rank %d: MPI finalized %d; destroying the objects\n", rank, finalized);
  message.reset();
  persistent.reset();
  request.reset();
  dup.reset();
  return finalized != 0 ? 0 : 1;
}
