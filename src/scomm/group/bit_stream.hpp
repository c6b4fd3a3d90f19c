// Bits packed least significant first into 64-bit words: an appender for building a stream of
// variable-length codes, and a 64-bit window readable at any bit position for decoding them.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace scomm::group {

class BitWriter {
 public:
  // Appends the low `bits` (0..64) bits of `value`.
  void append(std::uint64_t value, unsigned bits) {
    if (bits == 0) return;
    if (bits < 64) value &= (std::uint64_t{1} << bits) - 1;
    const unsigned offset = static_cast<unsigned>(size_ % 64);
    if (offset == 0) words_.push_back(0);
    words_.back() |= value << offset;
    if (offset + bits > 64) words_.push_back(value >> (64 - offset));
    size_ += bits;
  }
  // Zero bits up to the next multiple of 8, so that the next code starts at a byte offset.
  void align_to_byte() { append(0, static_cast<unsigned>((8 - size_ % 8) % 8)); }
  std::uint64_t size() const noexcept { return size_; }
  // The words, with one zero word beyond the last so that a window read never leaves them.
  std::vector<std::uint64_t> finish() && {
    words_.push_back(0);
    words_.shrink_to_fit();
    return std::move(words_);
  }

 private:
  std::vector<std::uint64_t> words_;
  std::uint64_t size_ = 0;
};

// The 64 bits from bit `position` on; precondition: the word after position's word exists.
inline std::uint64_t bit_window(const std::uint64_t* words, std::uint64_t position) noexcept {
  const std::uint64_t* word = words + position / 64;
  const unsigned offset = static_cast<unsigned>(position % 64);
  // Two shifts instead of one by 64 - offset, which would be undefined for offset 0.
  return (word[0] >> offset) | ((word[1] << 1) << (63 - offset));
}

}  // namespace scomm::group
