#include "scomm/comm/exchange.hpp"

#include "scomm/p2p/point_to_point.hpp"

namespace scomm::comm {

void Exchange::start(p2p::MatchingEngine& engine, const p2p::ChannelPtr& channel, int tag,
                     int send_to, const std::uint64_t* send, int send_words, int receive_from,
                     std::uint64_t* receive, int receive_words) {
  send_.reset();
  receive_.reset();
  if (receive_from >= 0)
    receive_ = p2p::irecv(engine, channel, receive, receive_words, MPI_UINT64_T, receive_from, tag);
  if (send_to >= 0)
    send_ =
        p2p::isend(*channel, send, send_words, MPI_UINT64_T, send_to, tag, p2p::SendMode::kStandard)
            .to_request();
}

bool Exchange::done(p2p::MatchingEngine& engine) {
  p2p::Status status;
  auto complete = [&](p2p::Request& r) {
    return blocking_ ? r.wait(engine, status) : r.test(engine, status);
  };
  if (receive_ && complete(*receive_)) receive_.reset();
  if (send_ && complete(*send_)) send_.reset();
  return !receive_ && !send_;
}

}  // namespace scomm::comm
