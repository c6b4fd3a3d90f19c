#include "scomm/p2p/channel.hpp"

namespace scomm::p2p {

void ChannelPtr::dispose(Channel* channel) noexcept {
  if (channel->owner_ != nullptr)
    channel->owner_->dispose(channel);
  else
    delete channel;
}

Channel::Queues::~Queues() {
  for (ProbedMessage& message : unexpected) discard_probed(message);
}

}  // namespace scomm::p2p
