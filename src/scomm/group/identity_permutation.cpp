#include "scomm/group/identity_permutation.hpp"

#include <algorithm>

#include "scomm/group/packed_permutation.hpp"

namespace scomm::group {

PermutationPtr make_identity_permutation(Rank n) {
  return std::make_unique<IdentityPermutation>(n);
}

// The kind's cost model and constructor, named apart from the other kinds' (unity builds).
namespace identity_permutation_kind {
namespace {

std::size_t estimate_bytes(const PermutationStats&) {
  return sizeof(IdentityPermutation);
}

// apply and inverse return their argument: one virtual call each.
double estimate_ns(const PermutationStats&) {
  return 2.0;
}

PermutationPtr build(std::span<const Rank> set_index_of_rank) {
  if (!std::is_sorted(set_index_of_rank.begin(), set_index_of_rank.end()))
    return kPackedPermutationKind.build(set_index_of_rank);
  return make_identity_permutation(static_cast<Rank>(set_index_of_rank.size()));
}

}  // namespace
}  // namespace identity_permutation_kind

const PermutationKind kIdentityPermutationKind{
    "identity", identity_permutation_kind::estimate_bytes, identity_permutation_kind::estimate_ns,
    identity_permutation_kind::build};

}  // namespace scomm::group
