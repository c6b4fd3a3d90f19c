#include "scomm/group/delta_set.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "scomm/group/bit_stream.hpp"
#include "scomm/group/set_stats.hpp"

namespace scomm::group {
namespace {

constexpr Rank kMaxRank = std::numeric_limits<Rank>::max();

std::uint64_t low_bits(std::uint64_t x, unsigned bits) {
  return x & ((std::uint64_t{1} << bits) - 1);
}

// Elias delta, least significant bit first: with N = bit_width(gap) and z = bit_width(N) - 1,
// z zeros and a one, the low z bits of N, the low N - 1 bits of the gap. Its length is the
// Elias-delta length elias_delta_bits(gap) that SetStats sums, and a gap of 1 is the single bit 1,
// so runs of consecutive members are runs of one bits.
void append_delta(BitWriter& out, std::uint64_t gap) {
  const auto length = static_cast<unsigned>(std::bit_width(gap));
  const auto length_bits = static_cast<unsigned>(std::bit_width(length)) - 1;
  out.append(std::uint64_t{1} << length_bits, length_bits + 1);
  out.append(length, length_bits);
  out.append(gap, length - 1);
}

}  // namespace

// Walks the gap codes of one block from its first member on; a code is at most 42 bits (gaps are
// below 2^31), so one 64-bit window holds it.
class DeltaSet::Cursor {
 public:
  Cursor(const std::uint64_t* codes, std::uint64_t position, Rank value)
      : codes_(codes), position_(position), value_(value) {}

  Rank value() const noexcept { return value_; }

  // Advances over at most `limit` members, stopping early once value() >= target; returns how
  // many. A run of consecutive members (gap-1 codes, single one bits) is taken at once.
  Rank advance(Rank limit, Rank target) noexcept {
    Rank steps = 0;
    while (steps < limit && value_ < target) {
      const std::uint64_t window = bit_window(codes_, position_);
      const auto ones = static_cast<Rank>(std::countr_one(window));
      if (ones == 0) {
        next_from(window);
        ++steps;
        continue;
      }
      const Rank take = std::min({ones, limit - steps, target - value_});
      consume(static_cast<unsigned>(take), take);
      steps += take;
    }
    return steps;
  }

  // Advances one member.
  void next() noexcept { next_from(bit_window(codes_, position_)); }

 private:
  void next_from(std::uint64_t window) noexcept {
    const auto length_bits = static_cast<unsigned>(std::countr_zero(window));
    window >>= length_bits + 1;
    const auto length =
        static_cast<unsigned>(low_bits(window, length_bits) | (std::uint64_t{1} << length_bits));
    window >>= length_bits;
    const std::uint64_t gap = low_bits(window, length - 1) | (std::uint64_t{1} << (length - 1));
    consume(2 * length_bits + length, static_cast<Rank>(gap));
  }
  void consume(unsigned bits, Rank gap) noexcept {
    position_ += bits;
    value_ += gap;
  }

  const std::uint64_t* codes_;
  std::uint64_t position_;
  Rank value_;
};

DeltaSet::DeltaSet(std::span<const Rank> sorted) : n_(static_cast<Rank>(sorted.size())) {
  BitWriter codes;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (i % kBlock == 0) {
      codes.align_to_byte();
      block_first_.push_back(sorted[i]);
      block_offset_.push_back(static_cast<std::uint32_t>(codes.size() / 8));
    } else {
      append_delta(codes, static_cast<std::uint64_t>(sorted[i] - sorted[i - 1]));
    }
  }
  codes_ = std::move(codes).finish();
  block_first_.shrink_to_fit();
  block_offset_.shrink_to_fit();
}

DeltaSet::Cursor DeltaSet::cursor(std::size_t block) const noexcept {
  return Cursor(codes_.data(), std::uint64_t{block_offset_[block]} * 8, block_first_[block]);
}

Rank DeltaSet::select(Rank i) const noexcept {
  Cursor c = cursor(static_cast<std::size_t>(i / kBlock));
  c.advance(i % kBlock, kMaxRank);
  return c.value();
}

Rank DeltaSet::rank(Rank world) const noexcept {
  const auto after = std::upper_bound(block_first_.begin(), block_first_.end(), world);
  if (after == block_first_.begin()) return kUndefined;  // below the first member, or negative
  const auto block = static_cast<Rank>(after - block_first_.begin() - 1);
  Cursor c = cursor(static_cast<std::size_t>(block));
  const Rank first = block * kBlock;
  const Rank steps = c.advance(std::min(kBlock, n_ - first) - 1, world);
  return c.value() == world ? first + steps : kUndefined;
}

void DeltaSet::decode(Rank first, std::span<Rank> out) const noexcept {
  std::size_t done = 0;
  while (done < out.size()) {
    const Rank i = first + static_cast<Rank>(done);
    Cursor c = cursor(static_cast<std::size_t>(i / kBlock));
    c.advance(i % kBlock, kMaxRank);
    out[done++] = c.value();
    for (Rank j = i + 1; j % kBlock != 0 && done < out.size(); ++j) {
      c.next();
      out[done++] = c.value();
    }
  }
}

std::size_t DeltaSet::bytes() const noexcept {
  return sizeof(*this) + block_first_.capacity() * sizeof(Rank) +
         block_offset_.capacity() * sizeof(std::uint32_t) +
         codes_.capacity() * sizeof(std::uint64_t);
}

// The kind's cost model and constructor, named apart from the other kinds' (unity builds).
namespace delta_set_kind {
namespace {

// The codes of every gap but the blocks' first members (stored whole, 8 bytes with the offset),
// half a byte of alignment per block, the last partial word and a padding word.
std::size_t estimate_bytes(const SetStats& s) {
  const auto blocks = static_cast<std::uint64_t>((s.n + DeltaSet::kBlock - 1) / DeltaSet::kBlock);
  const double code_bits = static_cast<double>(s.delta_bits) * (1.0 - 1.0 / DeltaSet::kBlock) +
                           4.0 * static_cast<double>(blocks);
  return sizeof(DeltaSet) + static_cast<std::size_t>(code_bits / 8.0) + blocks * 8 + 24;
}
// select and rank each walk kBlock/2 members of a block on average: one code decoded per gap
// above 1, one step per run of unit gaps, so about kBlock * runs/n steps of ~4.5 ns; rank first
// binary-searches the blocks' first members (~1 ns a step, warm). Measured with scomm-bench at
// W = 200,000: 69-74 ns select and 73-78 ns rank on random sets and residues, 8 and 15 ns on
// ranges of 100.
double estimate_ns(const SetStats& s) {
  const double n = std::max(1.0, static_cast<double>(s.n));
  const double steps = std::min(DeltaSet::kBlock / 2.0, DeltaSet::kBlock * s.runs / n);
  const double blocks = std::ceil(n / DeltaSet::kBlock);
  return 10.0 + 2.0 * 4.5 * steps + std::log2(blocks + 1.0);
}
SetPtr build(std::span<const Rank> sorted, Rank) {
  return std::make_unique<DeltaSet>(sorted);
}

}  // namespace
}  // namespace delta_set_kind

const SetKind kDeltaSetKind{"delta", delta_set_kind::estimate_bytes, delta_set_kind::estimate_ns,
                            delta_set_kind::build};

}  // namespace scomm::group
