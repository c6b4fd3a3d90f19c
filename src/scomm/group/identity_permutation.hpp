// identity: the permutation of an ascending map; no memory beyond its size.
#pragma once

#include "scomm/group/representation.hpp"

namespace scomm::group {

class IdentityPermutation final : public Permutation {
 public:
  explicit IdentityPermutation(Rank n) : n_(n) {}
  Rank size() const noexcept override { return n_; }
  Rank apply(Rank r) const noexcept override { return r; }
  Rank inverse(Rank j) const noexcept override { return j; }
  std::size_t bytes() const noexcept override { return sizeof(*this); }
  std::string_view name() const noexcept override { return "identity"; }
  bool identity() const noexcept override { return true; }

 private:
  Rank n_;
};

PermutationPtr make_identity_permutation(Rank n);

// Only for permutations with at most one ascending run, which is why it is not among
// permutation_kinds(): the strategy pairs an ascending map with the identity directly. Its build()
// never returns a wrong answer: any other input gets a packed permutation.
extern const PermutationKind kIdentityPermutationKind;

}  // namespace scomm::group
