// An ordered set of world ranks: the "set" half of the thesis's set + permutation decomposition.
// Element i is the i-th smallest member.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

#include "scomm/group/rank.hpp"

namespace scomm::group {

class OrderedSet {
 public:
  virtual ~OrderedSet() = default;
  virtual Rank size() const noexcept = 0;
  // The i-th smallest member; precondition 0 <= i < size().
  virtual Rank select(Rank i) const noexcept = 0;
  // Index of `world` among the members, or kUndefined when it is not a member.
  virtual Rank rank(Rank world) const noexcept = 0;
  // out[k] = select(first + k), decoded sequentially.
  virtual void decode(Rank first, std::span<Rank> out) const noexcept;
  virtual std::size_t bytes() const noexcept = 0;
  virtual std::string_view name() const noexcept = 0;
};

using SetPtr = std::unique_ptr<const OrderedSet>;

}  // namespace scomm::group
