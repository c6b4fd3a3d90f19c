// plain-array: one 32-bit world rank per member, the MPICH/Open MPI baseline.
#pragma once

#include <vector>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class PlainList final : public RankMap {
 public:
  explicit PlainList(std::span<const Rank> world_ranks);
  Rank size() const noexcept override { return static_cast<Rank>(ranks_.size()); }
  Rank select(Rank rank) const noexcept override { return ranks_[static_cast<std::size_t>(rank)]; }
  Rank rank_of(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override {
    return sizeof(*this) + ranks_.capacity() * sizeof(Rank);
  }
  std::string_view name() const noexcept override { return "plain-array"; }
  bool ascending() const noexcept override { return ascending_; }

 private:
  std::vector<Rank> ranks_;
  bool ascending_;
};

extern const ListKind kPlainListKind;

}  // namespace scomm::group
