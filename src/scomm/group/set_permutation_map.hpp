// A map stored as an ordered set plus a permutation (thesis ch. 3): select(r) = set[perm(r)],
// rank_of(w) = perm^-1(set.rank(w)).
#pragma once

#include <string>

#include "scomm/group/ordered_set.hpp"
#include "scomm/group/permutation.hpp"
#include "scomm/group/rank_map.hpp"

namespace scomm::group {

class SetPermutationMap final : public RankMap {
 public:
  SetPermutationMap(SetPtr set, PermutationPtr permutation);

  Rank size() const noexcept override { return set_->size(); }
  Rank select(Rank rank) const noexcept override { return set_->select(permutation_->apply(rank)); }
  Rank rank_of(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return name_; }
  bool ascending() const noexcept override { return permutation_->identity(); }

  const OrderedSet& set() const noexcept { return *set_; }
  const Permutation& permutation() const noexcept { return *permutation_; }

 private:
  SetPtr set_;
  PermutationPtr permutation_;
  std::string name_;
};

}  // namespace scomm::group
