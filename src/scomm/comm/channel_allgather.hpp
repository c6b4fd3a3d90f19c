// Allgather of a few words per member over a communicator's channel (Bruck's algorithm:
// ceil(log2 p) rounds for any p), nonblocking; used by split for (color, key).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "scomm/comm/exchange.hpp"

namespace scomm::comm {

class ChannelAllgather {
 public:
  // `blocking`: see Exchange.
  ChannelAllgather(p2p::MatchingEngine& engine, p2p::ChannelPtr channel, int tag,
                   std::vector<std::uint64_t> mine, bool blocking);
  bool test();
  // Words of member r at [r * words, (r + 1) * words), once test() is true.
  const std::vector<std::uint64_t>& result() const noexcept { return ordered_; }

 private:
  void begin_round();

  p2p::MatchingEngine& engine_;
  p2p::ChannelPtr channel_;
  int tag_;
  int words_;
  int distance_ = 1;
  std::vector<std::uint64_t> gathered_;  // blocks of ranks rank, rank + 1, ... (mod p)
  std::vector<std::uint64_t> ordered_;
  Exchange exchange_;
};

}  // namespace scomm::comm
