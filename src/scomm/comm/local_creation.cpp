// create_range and create_from_group: O(1) and without communication while the parent has
// derivation bits left.
#include <string>

#include "scomm/base/error.hpp"
#include "scomm/comm/create.hpp"

namespace scomm::comm {

void check_subset(const group::Group& parent, const group::Group& group) {
  std::vector<group::Rank> members(static_cast<std::size_t>(group.size()));
  group.map().decode(0, members);
  for (group::Rank world : members)
    if (parent.map().rank_of(world) == group::kUndefined)
      throw Error(ErrorClass::kGroup, "the group's process " + std::to_string(world) +
                                          " is not a member of the parent communicator");
}

namespace {

// `child` carries the caller's base rank, so child.rank() says whether it is a member.
std::optional<Comm> create_local(Runtime& runtime, Comm& parent, const group::Group& child) {
  const auto derived = context::derive_child(parent.derivation());
  if (!derived) return finish(*start_create(runtime, parent, child));
  const group::Rank rank = child.rank();
  if (rank == group::kUndefined) return std::nullopt;
  runtime.check_free(derived->first, derived->span());
  return Comm(runtime.open_channel(child.map_ptr(), rank, derived->first), *derived);
}

}  // namespace

std::optional<Comm> create_range(Runtime& runtime, Comm& parent, int first, int last, int stride,
                                 const group::MapPolicy& policy) {
  const group::RangeTriplet range{first, last, stride};
  return create_local(runtime, parent,
                      group::range_incl(parent.group(), std::span(&range, 1), policy));
}

std::optional<Comm> create_from_group(Runtime& runtime, Comm& parent, const group::Group& group) {
  const group::Group parent_group = parent.group();
  check_subset(parent_group, group);
  return create_local(runtime, parent, group.with_self(parent_group.self_world()));
}

}  // namespace scomm::comm
