// delta: the gaps between members in Elias-delta code, with the first member of every block of
// kBlock members stored whole, beside the byte offset of the block's codes (thesis 4.1.4: gap
// coding with block prefix sums). select decodes inside one block; rank binary-searches the
// blocks' first members, then decodes forward until it reaches or passes the world rank.
#pragma once

#include <cstdint>
#include <vector>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class DeltaSet final : public OrderedSet {
 public:
  static constexpr Rank kBlock = 32;

  // Precondition: `sorted` strictly increasing, every member in [0, 2^31 - 1).
  explicit DeltaSet(std::span<const Rank> sorted);

  Rank size() const noexcept override { return n_; }
  Rank select(Rank i) const noexcept override;
  Rank rank(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "delta"; }

 private:
  class Cursor;
  Cursor cursor(std::size_t block) const noexcept;

  Rank n_;
  std::vector<Rank> block_first_;            // member kBlock * b
  std::vector<std::uint32_t> block_offset_;  // byte offset of the gap code of member kBlock*b+1
  std::vector<std::uint64_t> codes_;         // the gap codes, blocks starting at byte offsets
};

extern const SetKind kDeltaSetKind;

}  // namespace scomm::group
