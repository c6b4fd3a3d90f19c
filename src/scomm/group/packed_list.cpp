#include "scomm/group/packed_list.hpp"

#include <algorithm>

#include "scomm/group/list_scan.hpp"
#include "scomm/group/permutation_stats.hpp"

namespace scomm::group {

PackedList::PackedList(std::span<const Rank> world_ranks, Rank universe)
    : ranks_(world_ranks.size(), 0,
             static_cast<std::uint8_t>(packed_width(static_cast<std::uint64_t>(universe)))),
      ascending_(std::is_sorted(world_ranks.begin(), world_ranks.end())) {
  std::copy(world_ranks.begin(), world_ranks.end(), ranks_.begin());
}

Rank PackedList::rank_of(Rank world) const noexcept {
  return scan_rank_of(size(), world, [this](Rank r) { return select(r); });
}

namespace {

std::size_t estimate_bytes(const SetStats& s, bool) {
  const std::size_t bits =
      static_cast<std::size_t>(s.n) * packed_width(static_cast<std::uint64_t>(s.universe));
  return sizeof(PackedList) + (bits + 63) / 64 * 8 + 8;
}
double estimate_ns(const SetStats&) {
  return 3.0;
}
MapPtr build(std::span<const Rank> world_ranks, Rank universe) {
  return std::make_shared<PackedList>(world_ranks, universe);
}

}  // namespace

const ListKind kPackedListKind{"packed-array", estimate_bytes, estimate_ns, build};

}  // namespace scomm::group
