// roaring: CRoaring's compressed bitmap (array, bitmap and run containers per 2^16 ranks), with
// native rank and select.
#pragma once

#include <roaring/roaring.h>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class RoaringSet final : public OrderedSet {
 public:
  // Precondition: `sorted` strictly increasing, members >= 0 (read as unsigned by CRoaring).
  explicit RoaringSet(std::span<const Rank> sorted);
  ~RoaringSet() override { roaring_bitmap_free(bitmap_); }
  RoaringSet(const RoaringSet&) = delete;
  RoaringSet& operator=(const RoaringSet&) = delete;

  Rank size() const noexcept override { return n_; }
  Rank select(Rank i) const noexcept override;
  Rank rank(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "roaring"; }

 private:
  Rank n_;
  roaring_bitmap_t* bitmap_;
};

extern const SetKind kRoaringSetKind;

}  // namespace scomm::group
