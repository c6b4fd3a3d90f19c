// Every representation the strategy may choose for an irregular map.
#pragma once

#include <span>

#include "scomm/group/representation.hpp"

namespace scomm::group {

std::span<const SetKind* const> set_kinds();
std::span<const PermutationKind* const> permutation_kinds();  // non-identity permutations
std::span<const ListKind* const> list_kinds();

}  // namespace scomm::group
