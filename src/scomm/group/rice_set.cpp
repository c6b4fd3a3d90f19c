#include "scomm/group/rice_set.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

#include "scomm/group/bit_stream.hpp"

namespace scomm::group {

// Reads Rice codes from a bit position: q zero bits, a one bit, then k low bits.
class RiceSet::Reader {
 public:
  Reader(const RiceSet& set, std::uint64_t position) : set_(set), position_(position) {}

  std::uint64_t next_gap() noexcept {
    std::uint64_t quotient = 0;
    for (;;) {
      const std::uint64_t window = bit_window(set_.words_.data(), position_);
      if (window != 0) {
        const auto zeros = static_cast<unsigned>(std::countr_zero(window));
        quotient += zeros;
        position_ += zeros + 1;
        break;
      }
      quotient += 64;
      position_ += 64;
    }
    const std::uint64_t low = set_.k_ == 0 ? 0
                                           : bit_window(set_.words_.data(), position_) &
                                                 ((std::uint64_t{1} << set_.k_) - 1);
    position_ += set_.k_;
    return ((quotient << set_.k_) | low) + 1;
  }

 private:
  const RiceSet& set_;
  std::uint64_t position_;
};

unsigned RiceSet::parameter(Rank n, Rank universe) {
  const double mean_gap = static_cast<double>(std::max(universe, 1)) / std::max(n, 1);
  return static_cast<unsigned>(std::max(0.0, std::floor(std::log2(mean_gap * std::log(2.0)))));
}

RiceSet::RiceSet(std::span<const Rank> sorted, Rank universe)
    : n_(static_cast<Rank>(sorted.size())), k_(parameter(n_, universe)) {
  BitWriter codes;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i % kBlock == 0) {
      samples_.push_back({sorted[i], static_cast<std::uint32_t>(codes.size())});
      continue;
    }
    const auto gap = static_cast<std::uint64_t>(sorted[i] - sorted[i - 1] - 1);
    for (std::uint64_t q = gap >> k_; q > 0; q -= std::min<std::uint64_t>(q, 64))
      codes.append(0, static_cast<unsigned>(std::min<std::uint64_t>(q, 64)));
    codes.append(1, 1);
    codes.append(gap, k_);
  }
  words_ = std::move(codes).finish();  // a padding word lets a window read past the last code
  samples_.shrink_to_fit();
}

Rank RiceSet::select(Rank i) const noexcept {
  const Sample& s = samples_[static_cast<std::size_t>(i / kBlock)];
  Reader reader(*this, s.position);
  std::uint64_t value = static_cast<std::uint64_t>(s.first);
  for (Rank step = i % kBlock; step > 0; --step) value += reader.next_gap();
  return static_cast<Rank>(value);
}

Rank RiceSet::rank(Rank world) const noexcept {
  const auto after = std::upper_bound(samples_.begin(), samples_.end(), world,
                                      [](Rank w, const Sample& s) { return w < s.first; });
  if (after == samples_.begin() || world < 0) return kUndefined;
  const auto block = static_cast<Rank>(after - samples_.begin() - 1);
  Reader reader(*this, samples_[static_cast<std::size_t>(block)].position);
  std::int64_t value = samples_[static_cast<std::size_t>(block)].first;
  const Rank end = std::min(n_, (block + 1) * kBlock);
  for (Rank i = block * kBlock;; ++i) {
    if (value == world) return i;
    if (value > world || i + 1 == end) return kUndefined;
    value += static_cast<std::int64_t>(reader.next_gap());
  }
}

void RiceSet::decode(Rank first, std::span<Rank> out) const noexcept {
  std::size_t done = 0;
  while (done < out.size()) {
    const Rank i = first + static_cast<Rank>(done);
    const Sample& s = samples_[static_cast<std::size_t>(i / kBlock)];
    Reader reader(*this, s.position);
    std::uint64_t value = static_cast<std::uint64_t>(s.first);
    for (Rank step = i % kBlock; step > 0; --step) value += reader.next_gap();
    out[done++] = static_cast<Rank>(value);
    for (Rank j = i + 1; j % kBlock != 0 && j < n_ && done < out.size(); ++j)
      out[done++] = static_cast<Rank>(value += reader.next_gap());
  }
}

std::size_t RiceSet::bytes() const noexcept {
  return sizeof(*this) + words_.capacity() * sizeof(std::uint64_t) +
         samples_.capacity() * sizeof(Sample);
}

// The kind's cost model and constructor, named apart from the other kinds' (unity builds).
namespace rice_set_kind {
namespace {

// A Rice code of gap g costs ((g-1) >> k) + 1 + k bits; with gaps spread evenly around the mean
// the unary part averages (mean-1) / 2^k.
std::size_t estimate_bytes(const SetStats& s) {
  const unsigned k = RiceSet::parameter(s.n, s.universe);
  const double mean_gap = static_cast<double>(std::max(s.universe, 1)) / std::max(s.n, 1);
  const double bits = s.n * ((mean_gap - 1) / std::ldexp(1.0, static_cast<int>(k)) + 1.0 + k);
  const double samples = std::ceil(static_cast<double>(s.n) / RiceSet::kBlock) * 8.0;
  return sizeof(RiceSet) + static_cast<std::size_t>(bits / 8.0 + samples) + 16;
}
// Half a block of codes to decode on average, for select and for rank.
double estimate_ns(const SetStats&) {
  return 2.0 * (15.0 + 2.5 * RiceSet::kBlock / 2);
}
SetPtr build(std::span<const Rank> sorted, Rank universe) {
  return std::make_unique<RiceSet>(sorted, universe);
}

}  // namespace
}  // namespace rice_set_kind

const SetKind kRiceSetKind{"rice", rice_set_kind::estimate_bytes, rice_set_kind::estimate_ns,
                           rice_set_kind::build};

}  // namespace scomm::group
