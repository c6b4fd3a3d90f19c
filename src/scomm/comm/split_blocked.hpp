// The common split whose result is regular: every color a contiguous range of parent ranks, keys
// in rank order (halves, blocks of nodes, rows of a grid). Detected collectively with O(1) memory
// per process -- one exchange with the two neighbours, one AND -- and the caller's range found by
// a two-way scan (prefix max of run starts, suffix min of run ends) in ceil(log2 p) rounds, where
// the general split allgathers every (color, key): 16 bytes per parent rank at every process.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "scomm/comm/channel_reducer.hpp"
#include "scomm/comm/exchange.hpp"

namespace scomm::comm {

class BlockedSplit {
 public:
  // Two internal tags: one for the neighbour exchange and the scan, one for the AND.
  // `blocking`: see Exchange.
  BlockedSplit(p2p::MatchingEngine& engine, p2p::ChannelPtr channel, int tag, int reduce_tag,
               int color, int key, bool blocking);
  // True once decided; then blocked() says whether the fast path applies and first()/last()
  // give the caller's range of parent ranks.
  bool test();
  bool blocked() const noexcept { return agreement_[0] != 0; }
  int first() const noexcept { return static_cast<int>(starts_[0]); }
  int last() const noexcept { return static_cast<int>(ends_[0]); }

 private:
  enum class Phase { kNeighbours, kAgree, kScan, kDone };

  void exchange_neighbours();
  void agree();
  void begin_scan_round();
  void finish_scan_round();

  p2p::MatchingEngine& engine_;
  p2p::ChannelPtr channel_;
  int tag_;
  int rank_, size_;
  std::array<std::uint64_t, 2> mine_;              // color, key
  std::array<std::uint64_t, 2> left_{}, right_{};  // the neighbours' color, key
  ChannelReducer reducer_;
  std::array<std::uint64_t, 1> agreement_{};
  Phase phase_ = Phase::kNeighbours;
  int distance_ = 1;
  // starts_[0]: the last run start at or before this rank seen so far; ends_[0]: the first run
  // end at or after it. [1]: what arrives in a scan round.
  std::array<std::uint64_t, 2> starts_{}, ends_{};
  Exchange toward_left_, toward_right_;
};

}  // namespace scomm::comm
