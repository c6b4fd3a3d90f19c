#include "scomm/group/elias_fano_set.hpp"

#include <cmath>

namespace scomm::group {

EliasFanoSet::EliasFanoSet(std::span<const Rank> sorted, Rank universe)
    : n_(static_cast<Rank>(sorted.size())) {
  std::vector<std::uint64_t> positions(sorted.begin(), sorted.end());
  bits_ = sdsl::sd_vector<>(positions.begin(), positions.end());
  (void)universe;  // sd_vector's universe is the largest member + 1
  sdsl::util::init_support(rank_, &bits_);
  sdsl::util::init_support(select_, &bits_);
}

Rank EliasFanoSet::rank(Rank world) const noexcept {
  if (world < 0 || static_cast<std::size_t>(world) >= bits_.size()) return kUndefined;
  if (!bits_[static_cast<std::size_t>(world)]) return kUndefined;
  return static_cast<Rank>(rank_(static_cast<std::size_t>(world)));
}

std::size_t EliasFanoSet::bytes() const noexcept {
  return sizeof(*this) + sdsl::size_in_bytes(bits_) + sdsl::size_in_bytes(rank_) +
         sdsl::size_in_bytes(select_);
}

namespace {

// Low parts of lg(W/n) bits, a unary high part of ~2 bits per member, and sd_vector's select-1
// and select-0 supports on the high part (measured: ~2.3 bits per member).
std::size_t estimate_bytes(const SetStats& s) {
  const double n = std::max<Rank>(s.n, 1);
  const double low = std::max(0.0, std::floor(std::log2(static_cast<double>(s.universe) / n)));
  const double bits = n * (low + 2.0 + 2.3);
  return sizeof(EliasFanoSet) + static_cast<std::size_t>(bits / 8.0) + 512;
}
// Measured: ~14 ns select, ~34 ns rank.
double estimate_ns(const SetStats&) {
  return 50.0;
}
SetPtr build(std::span<const Rank> sorted, Rank universe) {
  return std::make_unique<EliasFanoSet>(sorted, universe);
}

}  // namespace

const SetKind kEliasFanoSetKind{"elias-fano", estimate_bytes, estimate_ns, build};

}  // namespace scomm::group
