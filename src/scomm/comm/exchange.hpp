// One round of a schedule over a channel: nonblocking send and/or receive of a few words with one
// internal tag (above every user tag), done when both have completed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "scomm/p2p/request.hpp"

namespace scomm::comm {

class Exchange {
 public:
  // `blocking`: done() waits in MPI for the round to complete (the caller has nothing else to
  // do) instead of testing once; under a simulator like SMPI every test costs simulated time.
  explicit Exchange(bool blocking) : blocking_(blocking) {}

  // peer -1 means no send (or receive). The buffers must stay alive until done() is true.
  void start(p2p::MatchingEngine& engine, const p2p::ChannelPtr& channel, int tag, int send_to,
             const std::uint64_t* send, int send_words, int receive_from, std::uint64_t* receive,
             int receive_words);
  bool done(p2p::MatchingEngine& engine);

 private:
  bool blocking_;
  std::optional<p2p::Request> send_;
  std::optional<p2p::Request> receive_;
};

}  // namespace scomm::comm
