#include "scomm/group/set_permutation_map.hpp"

namespace scomm::group {

SetPermutationMap::SetPermutationMap(SetPtr set, PermutationPtr permutation)
    : set_(std::move(set)), permutation_(std::move(permutation)) {
  name_ = std::string(set_->name());
  if (!permutation_->identity()) name_ += "+" + std::string(permutation_->name());
}

Rank SetPermutationMap::rank_of(Rank world) const noexcept {
  const Rank j = set_->rank(world);
  return j == kUndefined ? kUndefined : permutation_->inverse(j);
}

void SetPermutationMap::decode(Rank first, std::span<Rank> out) const noexcept {
  if (permutation_->identity()) {
    set_->decode(first, out);
    return;
  }
  RankMap::decode(first, out);
}

std::size_t SetPermutationMap::bytes() const noexcept {
  return sizeof(*this) + name_.capacity() + set_->bytes() + permutation_->bytes();
}

}  // namespace scomm::group
