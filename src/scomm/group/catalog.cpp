#include "scomm/group/catalog.hpp"

#include <array>

#include "scomm/group/bdd_set.hpp"
#include "scomm/group/bitmap_set.hpp"
#include "scomm/group/compressed_list.hpp"
#include "scomm/group/delta_set.hpp"
#include "scomm/group/elias_fano_set.hpp"
#include "scomm/group/packed_list.hpp"
#include "scomm/group/packed_permutation.hpp"
#include "scomm/group/plain_list.hpp"
#include "scomm/group/rice_set.hpp"
#include "scomm/group/roaring_set.hpp"
#include "scomm/group/wtr_permutation.hpp"

namespace scomm::group {
namespace {

constexpr std::array<const SetKind*, 6> kSets{&kBitmapSetKind,    &kDeltaSetKind,   &kRiceSetKind,
                                              &kEliasFanoSetKind, &kRoaringSetKind, &kBddSetKind};
constexpr std::array<const PermutationKind*, 2> kPermutations{&kPackedPermutationKind,
                                                              &kWtrPermutationKind};
constexpr std::array<const ListKind*, 3> kLists{&kPlainListKind, &kPackedListKind,
                                                &kCompressedListKind};

}  // namespace

std::span<const SetKind* const> set_kinds() {
  return kSets;
}
std::span<const PermutationKind* const> permutation_kinds() {
  return kPermutations;
}
std::span<const ListKind* const> list_kinds() {
  return kLists;
}

}  // namespace scomm::group
