#include "scomm/comm/channel_allgather.hpp"

#include <algorithm>

namespace scomm::comm {

ChannelAllgather::ChannelAllgather(p2p::MatchingEngine& engine, p2p::ChannelPtr channel, int tag,
                                   std::vector<std::uint64_t> mine, bool blocking)
    : engine_(engine),
      channel_(std::move(channel)),
      tag_(tag),
      words_(static_cast<int>(mine.size())),
      gathered_(std::move(mine)),
      exchange_(blocking) {
  gathered_.resize(static_cast<std::size_t>(words_) * static_cast<std::size_t>(channel_->size()));
  begin_round();
}

void ChannelAllgather::begin_round() {
  const int p = channel_->size(), r = channel_->rank();
  if (distance_ >= p) return;
  const int blocks = std::min(distance_, p - distance_);
  std::uint64_t* incoming = gathered_.data() + static_cast<std::ptrdiff_t>(distance_) * words_;
  exchange_.start(engine_, channel_, tag_, (r - distance_ + p) % p, gathered_.data(),
                  blocks * words_, (r + distance_) % p, incoming, blocks * words_);
}

bool ChannelAllgather::test() {
  const int p = channel_->size(), r = channel_->rank();
  while (distance_ < p) {
    if (!exchange_.done(engine_)) return false;
    distance_ *= 2;
    begin_round();
  }
  if (ordered_.empty()) {
    ordered_.resize(gathered_.size());
    const auto words = static_cast<std::size_t>(words_);
    for (int i = 0; i < p; ++i)
      std::copy_n(gathered_.begin() + static_cast<std::ptrdiff_t>(i * words_), words,
                  ordered_.begin() + static_cast<std::ptrdiff_t>(((r + i) % p) * words_));
  }
  return true;
}

}  // namespace scomm::comm
