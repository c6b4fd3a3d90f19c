#include "scomm/coll/sparse_exchange.hpp"

#include <algorithm>

#include "scomm/coll/operations.hpp"
#include "scomm/p2p/point_to_point.hpp"

namespace scomm::coll {
namespace {

// Receives every block that has arrived with `tag`.
void receive_arrived(const Call& call, int tag, std::vector<SparseBlock>& received) {
  p2p::MatchingEngine& engine = call.runtime.engine();
  p2p::Channel& channel = call.comm.channel();
  while (const auto arrived = p2p::iprobe(engine, channel, MPI_ANY_SOURCE, tag)) {
    int count = 0;
    p2p::check_mpi(MPI_Get_count(&arrived->mpi, MPI_INT, &count), "MPI_Get_count");
    SparseBlock block{arrived->source, std::vector<int>(static_cast<std::size_t>(count))};
    p2p::recv(engine, channel, block.ints.data(), count, MPI_INT, arrived->source, tag, false);
    received.push_back(std::move(block));
  }
}

bool all_done(std::vector<p2p::PlainRequest>& sends) {
  p2p::Status status;
  return std::all_of(sends.begin(), sends.end(),
                     [&](p2p::PlainRequest& send) { return send.test(status); });
}

}  // namespace

std::vector<SparseBlock> sparse_exchange(const Call& call, const std::vector<SparseBlock>& outgoing,
                                         int tag) {
  std::vector<p2p::PlainRequest> sends;
  for (const SparseBlock& block : outgoing)
    sends.push_back(p2p::isend(call.comm.channel(), block.ints.data(),
                               static_cast<int>(block.ints.size()), MPI_INT, block.member, tag,
                               p2p::SendMode::kSynchronous));
  std::vector<SparseBlock> received;
  std::optional<p2p::Request> barrier;
  const Call nonblocking{call.runtime, call.comm, call.selection, false};
  for (p2p::Status status;;) {
    receive_arrived(call, tag, received);
    if (!barrier) {
      if (all_done(sends)) barrier.emplace(coll::barrier(nonblocking));
    } else if (barrier->test(call.runtime.engine(), status)) {
      break;
    }
    call.runtime.engine().progress_background();
  }
  std::stable_sort(received.begin(), received.end(),
                   [](const SparseBlock& a, const SparseBlock& b) { return a.member < b.member; });
  return received;
}

}  // namespace scomm::coll
