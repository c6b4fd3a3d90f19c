// Context allocation over a scomm communicator: the reductions run as recursive doubling over the
// communicator's own channel (internal tag), nonblocking, so that dup, split and their
// nonblocking forms work on communicators that have no MPI communicator behind them.
// Non-powers of two fold the extra ranks onto the first ones before and after the doubling.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "scomm/comm/exchange.hpp"
#include "scomm/context/reducer.hpp"

namespace scomm::comm {

class ChannelReducer final : public context::Reducer {
 public:
  // Every message carries `stamp` first; a message with another stamp (two collectives that
  // share a tag) is an error, never reduced. `blocking`: see Exchange.
  ChannelReducer(p2p::MatchingEngine& engine, p2p::ChannelPtr channel, int tag, bool blocking,
                 std::uint64_t stamp = 0);

  void start_max(std::span<std::int64_t> values) override;
  void start_and(std::span<std::uint64_t> bits) override;
  bool test() override;

 private:
  enum class Role { kFoldIn, kDouble, kFoldOut, kDone };
  using Combine = std::function<void(std::uint64_t&, std::uint64_t)>;

  void start(std::span<std::uint64_t> words, Combine combine);
  void begin_round();
  void finish_round();
  void combine_incoming();
  void check_stamp(std::uint64_t stamp) const;

  p2p::MatchingEngine& engine_;
  p2p::ChannelPtr channel_;
  int tag_;
  std::uint64_t stamp_;
  int rank_, size_, power_;           // power_: largest power of two <= size
  std::span<std::uint64_t> result_;   // the caller's words
  std::vector<std::uint64_t> words_;  // stamp, then the words reduced so far
  std::vector<std::uint64_t> incoming_;
  Combine combine_;
  Role role_ = Role::kDone;
  int mask_ = 0;
  bool signed_ = false;  // MAX words are offset by 2^63 while reducing
  Exchange exchange_;
};

}  // namespace scomm::comm
