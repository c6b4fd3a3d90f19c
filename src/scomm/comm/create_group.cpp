// create_group: only the group's members call it, so they allocate among themselves, talking on
// the parent's context through a view of its channel with the group's ranks. The user tag tells
// concurrent calls apart: it picks one of 63 internal tags, and every message carries it whole,
// so two calls whose tags share an internal tag fail loudly instead of mixing.
#include <optional>

#include "scomm/comm/channel_reducer.hpp"
#include "scomm/comm/create.hpp"

namespace scomm::comm {

std::optional<Comm> create_group(Runtime& runtime, Comm& parent, const group::Group& group,
                                 int tag) {
  const group::Group parent_group = parent.group();
  check_subset(parent_group, group);
  const group::Group child = group.with_self(parent_group.self_world());
  if (child.rank() == group::kUndefined) return std::nullopt;
  const p2p::ChannelPtr view(new p2p::Channel(parent.channel(), child.map_ptr(), child.rank()));
  constexpr int kGroupTags = context::TagLayout::kGroupTags;
  ChannelReducer reducer(
      runtime.engine(), view,
      runtime.layout().internal_tag(context::TagLayout::kSequencedTags + tag % kGroupTags), true,
      static_cast<std::uint64_t>(tag) + 1);
  const context::ContextId block =
      context::allocate(runtime.options().algorithm, runtime.blocks_for_allocation(), reducer,
                        [&] { runtime.engine().progress_background(); });
  return runtime.open(child.map_ptr(), child.rank(), runtime.block_derivation(block));
}

}  // namespace scomm::comm
