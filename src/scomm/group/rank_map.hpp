// The group map: group rank -> world rank (the "lpid"), and back.
//
// Every representation implements RankMap. Maps are immutable once built and shared between
// groups and communicators through std::shared_ptr<const RankMap>, so a child that reuses its
// parent's table (see affine_view.hpp) holds the table alive without copying it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "scomm/group/box.hpp"
#include "scomm/group/rank.hpp"

namespace scomm::group {

class RankMap {
 public:
  virtual ~RankMap() = default;

  // Number of group members n.
  virtual Rank size() const noexcept = 0;
  // World rank of group rank `rank`; precondition 0 <= rank < size().
  virtual Rank select(Rank rank) const noexcept = 0;
  // Group rank of world rank `world`, or kUndefined when `world` is not a member.
  virtual Rank rank_of(Rank world) const noexcept = 0;
  // Ordered iteration: out[i] = select(first + i). Representations override it with a
  // sequential decoder that is much faster than repeated select().
  virtual void decode(Rank first, std::span<Rank> out) const noexcept;
  // Bytes this map owns, auxiliary structures included. Tables shared with other maps are
  // reported by shared_bytes() instead, so a sum over maps counts every table once.
  virtual std::size_t bytes() const noexcept = 0;
  virtual std::size_t shared_bytes() const noexcept { return 0; }
  // Short representation name, e.g. "stride", "bitmap+wtr", "plain-array".
  virtual std::string_view name() const noexcept = 0;
  // The regular pattern this map is, if it is one (direct/offset/stride/stride-block/box).
  virtual std::optional<Box> as_box() const noexcept { return std::nullopt; }
  // True when select() is increasing (the map is a set with the identity permutation).
  virtual bool ascending() const noexcept = 0;

  // Bulk translate: out[i] = select(ranks[i]); precondition every rank is valid.
  void translate(std::span<const Rank> ranks, std::span<Rank> out) const noexcept;
};

using MapPtr = std::shared_ptr<const RankMap>;

}  // namespace scomm::group
