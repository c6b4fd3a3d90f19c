// Internal tags that one collective operation holds on a channel while it is in flight, so that
// no other operation in flight there takes them (Channel::hold_internal_tag): two at once on one
// tag could match each other's messages.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <utility>

#include "scomm/p2p/channel.hpp"

namespace scomm::p2p {

// Error(kIntern): more collective operations in flight on one communicator than internal tags.
[[noreturn, gnu::cold]] void throw_out_of_internal_tags();

// Up to kMost tags of one channel, held together while this lives: all of them, or, where one
// is held already, none (throw_out_of_internal_tags()'s error). No allocation: a creation holds
// its tags on every dup and split.
class HeldInternalTags {
 public:
  static constexpr std::size_t kMost = 4;

  HeldInternalTags(ChannelPtr channel, std::span<const int> tags);
  HeldInternalTags(HeldInternalTags&& other) noexcept
      : channel_(std::move(other.channel_)), tags_(other.tags_), count_(other.count_) {}
  HeldInternalTags(const HeldInternalTags&) = delete;
  HeldInternalTags& operator=(const HeldInternalTags&) = delete;
  HeldInternalTags& operator=(HeldInternalTags&&) = delete;
  ~HeldInternalTags() { release(); }

  int operator[](std::size_t index) const noexcept { return tags_[index]; }
  // Lets them go before this goes (the operation is done with them).
  void release() noexcept {
    release(count_);
    count_ = 0;
  }

 private:
  void release(std::size_t count) noexcept {
    if (!channel_) return;  // moved from
    for (std::size_t i = 0; i < count; ++i) channel_->release_internal_tag(tags_[i]);
  }

  ChannelPtr channel_;
  std::array<int, kMost> tags_{};
  std::size_t count_ = 0;
};

}  // namespace scomm::p2p
