#include "scomm/group/bitmap_set.hpp"

#include <bit>
#include <utility>
#include <vector>

namespace scomm::group {
namespace {

RankSelectBits member_bits(std::span<const Rank> sorted) {
  const auto bit_count = static_cast<std::uint64_t>(sorted.empty() ? 0 : sorted.back() + 1);
  std::vector<std::uint64_t> words((bit_count + 63) / 64, 0);
  for (Rank w : sorted)
    words[static_cast<std::size_t>(w) / 64] |= std::uint64_t{1} << (static_cast<unsigned>(w) % 64);
  return RankSelectBits(std::move(words), bit_count, RankSelectBits::Select0::kNo);
}

}  // namespace

BitmapSet::BitmapSet(std::span<const Rank> sorted) : bits_(member_bits(sorted)) {}

Rank BitmapSet::rank(Rank world) const noexcept {
  const auto w = static_cast<std::uint64_t>(world);
  if (world < 0 || w >= bits_.size() || !bits_.test(w)) return kUndefined;
  return static_cast<Rank>(bits_.rank1(w));
}

// Walks the words from the first member's position, peeling set bits with countr_zero.
void BitmapSet::decode(Rank first, std::span<Rank> out) const noexcept {
  if (out.empty()) return;
  const std::uint64_t position = bits_.select1(static_cast<std::uint64_t>(first));
  const std::uint64_t* words = bits_.words();
  auto word = static_cast<std::size_t>(position / 64);
  std::uint64_t pending = words[word] & (~std::uint64_t{0} << (position % 64));
  for (std::size_t k = 0; k < out.size();) {
    while (pending == 0) pending = words[++word];
    out[k++] = static_cast<Rank>(word * 64 + static_cast<std::size_t>(std::countr_zero(pending)));
    pending &= pending - 1;
  }
}

// The kind's cost model and constructor, named apart from the other kinds' (unity builds).
namespace bitmap_set_kind {
namespace {

// Exact: the bits in whole blocks, their counts, the select samples.
std::size_t estimate_bytes(const SetStats& s) {
  return sizeof(BitmapSet) + RankSelectBits::estimate_heap_bytes(
                                 static_cast<std::uint64_t>(s.universe),
                                 static_cast<std::uint64_t>(s.n), RankSelectBits::Select0::kNo);
}
// rank: a count and ~4 popcounts; select: a short search, ~4 popcounts and an in-word select.
// Measured with scomm-bench at W = 200,000: 12-14 ns select, 8 ns rank.
double estimate_ns(const SetStats&) {
  return 25.0;
}
SetPtr build(std::span<const Rank> sorted, Rank) {
  return std::make_unique<BitmapSet>(sorted);
}

}  // namespace
}  // namespace bitmap_set_kind

const SetKind kBitmapSetKind{"bitmap", bitmap_set_kind::estimate_bytes,
                             bitmap_set_kind::estimate_ns, bitmap_set_kind::build};

}  // namespace scomm::group
