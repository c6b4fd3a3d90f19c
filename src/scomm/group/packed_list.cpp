#include "scomm/group/packed_list.hpp"

#include <algorithm>

#include "scomm/group/list_scan.hpp"
#include "scomm/group/permutation_stats.hpp"

namespace scomm::group {

namespace {

std::uint8_t width_for(std::span<const Rank> world_ranks, Rank universe) {
  std::int64_t bound = universe;
  for (Rank w : world_ranks) bound = std::max<std::int64_t>(bound, std::int64_t{w} + 1);
  return static_cast<std::uint8_t>(packed_width(static_cast<std::uint64_t>(bound)));
}

}  // namespace

PackedList::PackedList(std::span<const Rank> world_ranks, Rank universe)
    : ranks_(world_ranks.size(), 0, width_for(world_ranks, universe)),
      ascending_(std::is_sorted(world_ranks.begin(), world_ranks.end())) {
  std::copy(world_ranks.begin(), world_ranks.end(), ranks_.begin());
}

Rank PackedList::rank_of(Rank world) const noexcept {
  return scan_rank_of(size(), world, [this](Rank r) { return select(r); });
}

// The int_vector iterator extracts consecutive fields without a virtual call per member.
void PackedList::decode(Rank first, std::span<Rank> out) const noexcept {
  const auto begin = ranks_.begin() + first;
  std::copy(begin, begin + static_cast<std::ptrdiff_t>(out.size()), out.begin());
}

// The kind's cost model and constructor, named apart from the other kinds' (unity builds).
namespace packed_list_kind {
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
}  // namespace packed_list_kind

const ListKind kPackedListKind{"packed-array", packed_list_kind::estimate_bytes,
                               packed_list_kind::estimate_ns, packed_list_kind::build};

}  // namespace scomm::group
