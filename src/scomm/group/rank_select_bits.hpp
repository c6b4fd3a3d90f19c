// A bit vector with rank and select, the core of the bitmap and Elias-Fano sets: the count of ones
// before every 512-bit block (rank: one count plus at most 8 word popcounts), and the block of
// every 2^k-th one (and, on request, every 2^k-th zero), k chosen so that samples lie about four
// blocks apart (select: a search among the few blocks between two samples, popcounts inside one
// block, a select inside one word). Auxiliary space: 6.25% of the bits plus about 0.2%.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace scomm::group {

class RankSelectBits {
 public:
  static constexpr std::uint64_t kBlockBits = 512;

  enum class Select0 { kNo, kYes };

  RankSelectBits() = default;
  // `words` holds bit p at bit p % 64 of word p / 64, for p < bit_count, zero beyond; at most
  // 2^32 - 1 ones and zeros each.
  RankSelectBits(std::vector<std::uint64_t> words, std::uint64_t bit_count, Select0 select0);

  std::uint64_t size() const noexcept { return bit_count_; }
  std::uint64_t ones() const noexcept { return block_rank_.back(); }
  // Preconditions: position < size().
  bool test(std::uint64_t position) const noexcept {
    return (words_[position / 64] >> (position % 64) & 1) != 0;
  }
  std::uint64_t rank1(std::uint64_t position) const noexcept;  // ones before position
  // Positions of the i-th one (i < ones()) and of the i-th zero (i < size() - ones(), and built
  // with Select0::kYes); i counts from 0.
  std::uint64_t select1(std::uint64_t i) const noexcept;
  std::uint64_t select0(std::uint64_t i) const noexcept;
  // Length of the run of ones that starts at position (0 if the bit is 0); position <= size().
  std::uint64_t ones_from(std::uint64_t position) const noexcept;
  // The words, whole blocks of them, for sequential scans.
  const std::uint64_t* words() const noexcept { return words_.data(); }

  // Heap memory in bytes, and the same computed from the sizes alone.
  std::size_t heap_bytes() const noexcept;
  static std::size_t estimate_heap_bytes(std::uint64_t bit_count, std::uint64_t ones,
                                         Select0 select0);

 private:
  struct Samples {
    unsigned step_log2 = 0;            // a sample every 2^step_log2 ones (or zeros)
    std::vector<std::uint32_t> block;  // block of the (j << step_log2)-th one (or zero)
  };
  static unsigned step_log2(std::uint64_t bit_count, std::uint64_t count) noexcept;
  static std::size_t sample_count(std::uint64_t bit_count, std::uint64_t count) noexcept;
  Samples sample(bool ones) const;
  std::uint64_t zeros_before(std::size_t block) const noexcept {
    return block * kBlockBits - block_rank_[block];
  }
  template <bool kOnes>
  std::uint64_t select(std::uint64_t i, const Samples& samples) const noexcept;

  std::uint64_t bit_count_ = 0;
  std::vector<std::uint64_t> words_;
  std::vector<std::uint32_t> block_rank_{0};  // ones before each block, then all the ones
  Samples ones_;
  Samples zeros_;
};

}  // namespace scomm::group
