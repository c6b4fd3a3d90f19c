#include "scomm/group/plain_list.hpp"

#include <algorithm>
#include <cstring>

#include "scomm/group/list_scan.hpp"

namespace scomm::group {

PlainList::PlainList(std::span<const Rank> world_ranks)
    : ranks_(world_ranks.begin(), world_ranks.end()),
      ascending_(std::is_sorted(world_ranks.begin(), world_ranks.end())) {}

Rank PlainList::rank_of(Rank world) const noexcept {
  return scan_rank_of(size(), world, [this](Rank r) { return select(r); });
}

void PlainList::decode(Rank first, std::span<Rank> out) const noexcept {
  if (out.empty()) return;  // memcpy's pointers must be valid even for 0 bytes
  std::memcpy(out.data(), ranks_.data() + first, out.size_bytes());
}

// The kind's cost model and constructor, named apart from the other kinds' (unity builds).
namespace plain_list_kind {
namespace {

std::size_t estimate_bytes(const SetStats& s, bool) {
  return sizeof(PlainList) + 4u * static_cast<std::size_t>(s.n);
}
double estimate_ns(const SetStats&) {
  return 2.0;
}
MapPtr build(std::span<const Rank> world_ranks, Rank) {
  return std::make_shared<PlainList>(world_ranks);
}

}  // namespace
}  // namespace plain_list_kind

const ListKind kPlainListKind{"plain-array", plain_list_kind::estimate_bytes,
                              plain_list_kind::estimate_ns, plain_list_kind::build};

}  // namespace scomm::group
