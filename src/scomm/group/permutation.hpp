// The "permutation" half of a map: group rank -> index into the ordered set, and back.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "scomm/group/rank.hpp"

namespace scomm::group {

class Permutation {
 public:
  virtual ~Permutation() = default;
  virtual Rank size() const noexcept = 0;
  // Set index of group rank r.
  virtual Rank apply(Rank r) const noexcept = 0;
  // Group rank of set index j.
  virtual Rank inverse(Rank j) const noexcept = 0;
  virtual std::size_t bytes() const noexcept = 0;
  virtual std::string_view name() const noexcept = 0;
  virtual bool identity() const noexcept { return false; }
};

using PermutationPtr = std::unique_ptr<const Permutation>;

}  // namespace scomm::group
