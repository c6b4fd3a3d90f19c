#include "scomm/p2p/held_internal_tags.hpp"

#include <cassert>
#include <string>

#include "scomm/base/error.hpp"
#include "scomm/context/tag_layout.hpp"

namespace scomm::p2p {

void throw_out_of_internal_tags() {
  throw Error(ErrorClass::kIntern,
              "more collectives in flight on one communicator than internal tags (" +
                  std::to_string(context::TagLayout::kSequencedTags) +
                  "): complete some before starting more");
}

HeldInternalTags::HeldInternalTags(ChannelPtr channel, std::span<const int> tags)
    : channel_(std::move(channel)) {
  assert(tags.size() <= kMost);
  for (const int tag : tags) {
    if (!channel_->hold_internal_tag(tag)) {
      release(count_);
      channel_ = nullptr;
      throw_out_of_internal_tags();
    }
    tags_[count_++] = tag;
  }
}

}  // namespace scomm::p2p
