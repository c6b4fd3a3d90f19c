// An internal tag that one collective operation holds on a channel while it is in flight, so
// that no other operation in flight there takes it (Channel::hold_internal_tag): two at once
// on one tag could match each other's messages.
#pragma once

#include <utility>

#include "scomm/p2p/channel.hpp"

namespace scomm::p2p {

// Error(kIntern): more collective operations in flight on one communicator than internal tags.
[[noreturn, gnu::cold]] void throw_out_of_internal_tags();

class HeldInternalTag {
 public:
  // Holds `tag` of `channel`, or throws throw_out_of_internal_tags()'s error.
  HeldInternalTag(ChannelPtr channel, int tag) : channel_(std::move(channel)), tag_(tag) {
    if (!channel_->hold_internal_tag(tag_)) [[unlikely]]
      throw_out_of_internal_tags();
  }
  HeldInternalTag(HeldInternalTag&& other) noexcept
      : channel_(std::move(other.channel_)), tag_(other.tag_) {}
  HeldInternalTag(const HeldInternalTag&) = delete;
  HeldInternalTag& operator=(const HeldInternalTag&) = delete;
  HeldInternalTag& operator=(HeldInternalTag&&) = delete;
  ~HeldInternalTag() {
    if (channel_) channel_->release_internal_tag(tag_);
  }

  int tag() const noexcept { return tag_; }

 private:
  ChannelPtr channel_;
  int tag_;
};

}  // namespace scomm::p2p
