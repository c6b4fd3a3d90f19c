// An MPI group: a shared immutable map plus the world rank of the calling process.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "scomm/group/rank_map.hpp"
#include "scomm/group/strategy.hpp"

namespace scomm::group {

enum class Comparison { kIdent, kSimilar, kUnequal };

class Group {
 public:
  Group();  // the empty group
  explicit Group(MapPtr map, Rank self_world = kUndefined);
  // Ranks 0..n-1 of a world of n processes; throws Error(kArg) for n < 0.
  static Group world(Rank n, Rank self_world = kUndefined);

  Rank size() const noexcept { return map_->size(); }
  // Group rank of the calling process, or kUndefined when it is not a member (or unknown).
  Rank rank() const noexcept;
  Rank self_world() const noexcept { return self_world_; }
  Group with_self(Rank self_world) const { return Group(map_, self_world); }

  const RankMap& map() const noexcept { return *map_; }
  const MapPtr& map_ptr() const noexcept { return map_; }
  std::size_t bytes() const noexcept { return map_->bytes(); }
  std::string_view representation() const noexcept { return map_->name(); }

 private:
  MapPtr map_;
  Rank self_world_ = kUndefined;
};

// MPI_Group_* semantics. Every function validates its input and throws scomm::Error with class
// kRank (invalid or duplicated ranks) or kArg (bad ranges, stride 0) with a readable message.
using RangeTriplet = std::array<int, 3>;  // first, last, stride

// The ranks first, first + stride, ... up to last of a group of `size` (MPI's range triplet:
// `last` itself need not be one of them, nor a rank of the group): Error(kArg) for stride 0 or a
// range that runs away from its end, Error(kRank) when its first or last computed rank is not a
// rank of the group. A progression of at least one term.
Progression range_progression(const RangeTriplet& range, Rank size, const char* what);

Group incl(const Group& group, std::span<const int> ranks, const MapPolicy& policy = {});
Group excl(const Group& group, std::span<const int> ranks, const MapPolicy& policy = {});
Group range_incl(const Group& group, std::span<const RangeTriplet> ranges,
                 const MapPolicy& policy = {});
Group range_excl(const Group& group, std::span<const RangeTriplet> ranges,
                 const MapPolicy& policy = {});
// Members of a, then members of b not in a (in b's order).
Group set_union(const Group& a, const Group& b, const MapPolicy& policy = {});
// Members of a that are in b, in a's order.
Group intersection(const Group& a, const Group& b, const MapPolicy& policy = {});
// Members of a not in b, in a's order.
Group difference(const Group& a, const Group& b, const MapPolicy& policy = {});
Comparison compare(const Group& a, const Group& b);
// out[i] = rank in `to` of member ranks[i] of `from`, kUndefined when absent; `proc_null` maps to
// itself (the base MPI's MPI_PROC_NULL value). Throws Error(kRank) for an invalid rank.
void translate_ranks(const Group& from, std::span<const int> ranks, const Group& to,
                     std::span<int> out, int proc_null);

}  // namespace scomm::group
