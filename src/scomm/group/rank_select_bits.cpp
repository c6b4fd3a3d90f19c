#include "scomm/group/rank_select_bits.hpp"

#include <sdsl/bits.hpp>

#include <algorithm>
#include <bit>
#include <utility>

namespace scomm::group {
namespace {

constexpr std::size_t kWordsPerBlock = RankSelectBits::kBlockBits / 64;

// Population count and in-word select from sdsl: inline broadword code, since the build targets
// plain x86-64, where std::popcount is a libgcc call.
std::uint32_t count_ones(std::uint64_t word) {
  return static_cast<std::uint32_t>(sdsl::bits::cnt(word));
}

std::size_t blocks_for(std::uint64_t bits) {
  return static_cast<std::size_t>((bits + RankSelectBits::kBlockBits - 1) /
                                  RankSelectBits::kBlockBits);
}

}  // namespace

RankSelectBits::RankSelectBits(std::vector<std::uint64_t> words, std::uint64_t bit_count,
                               Select0 select0)
    : bit_count_(bit_count), words_(std::move(words)) {
  words_.resize(blocks_for(bit_count) * kWordsPerBlock, 0);
  words_.shrink_to_fit();
  block_rank_.clear();
  block_rank_.reserve(blocks_for(bit_count) + 1);
  std::uint32_t ones = 0;
  for (std::size_t word = 0; word < words_.size(); ++word) {
    if (word % kWordsPerBlock == 0) block_rank_.push_back(ones);
    ones += count_ones(words_[word]);
  }
  block_rank_.push_back(ones);
  ones_ = sample(true);
  if (select0 == Select0::kYes) zeros_ = sample(false);
}

// Samples lie ~4 blocks apart: the search between two of them stays within a few cache lines,
// and they cost ~1/512 of the bits.
unsigned RankSelectBits::step_log2(std::uint64_t bit_count, std::uint64_t count) noexcept {
  const double in_4_blocks = 4.0 * kBlockBits * static_cast<double>(count) /
                             static_cast<double>(std::max<std::uint64_t>(bit_count, 1));
  const auto step = static_cast<std::uint32_t>(std::clamp(in_4_blocks, 1.0, 512.0));
  return static_cast<unsigned>(std::bit_width(step)) - 1;
}

std::size_t RankSelectBits::sample_count(std::uint64_t bit_count, std::uint64_t count) noexcept {
  const unsigned shift = step_log2(bit_count, count);
  return static_cast<std::size_t>((count + (std::uint64_t{1} << shift) - 1) >> shift);
}

// One pass over the block counts: every block where a sampled one (zero) falls.
RankSelectBits::Samples RankSelectBits::sample(bool ones) const {
  const std::uint64_t total = ones ? this->ones() : bit_count_ - this->ones();
  Samples samples{step_log2(bit_count_, total), {}};
  samples.block.reserve(sample_count(bit_count_, total));
  std::uint64_t next = 0;
  for (std::size_t block = 0; block + 1 < block_rank_.size(); ++block) {
    const std::uint64_t through = ones ? block_rank_[block + 1] : zeros_before(block + 1);
    for (; next < std::min(through, total); next += std::uint64_t{1} << samples.step_log2)
      samples.block.push_back(static_cast<std::uint32_t>(block));
  }
  return samples;
}

std::uint64_t RankSelectBits::rank1(std::uint64_t position) const noexcept {
  const std::size_t word = static_cast<std::size_t>(position / 64);
  const std::uint64_t below = (std::uint64_t{1} << (position % 64)) - 1;
  std::uint64_t before = block_rank_[position / kBlockBits] + count_ones(words_[word] & below);
  for (std::size_t w = word / kWordsPerBlock * kWordsPerBlock; w < word; ++w)
    before += count_ones(words_[w]);
  return before;
}

template <bool kOnes>
std::uint64_t RankSelectBits::select(std::uint64_t i, const Samples& samples) const noexcept {
  auto before = [this](std::size_t block) {
    return kOnes ? std::uint64_t{block_rank_[block]} : zeros_before(block);
  };
  // The last block with at most i ones (zeros) before it, between the samples around i.
  const auto sample = static_cast<std::size_t>(i >> samples.step_log2);
  std::size_t low = samples.block[sample];
  std::size_t high =
      sample + 1 < samples.block.size() ? samples.block[sample + 1] : block_rank_.size() - 2;
  while (low < high) {
    const std::size_t middle = (low + high + 1) / 2;
    if (before(middle) <= i) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  std::uint64_t rest = i - before(low);
  std::size_t word = low * kWordsPerBlock;
  auto wanted = [](std::uint64_t w) { return kOnes ? w : ~w; };
  for (std::uint32_t count; rest >= (count = count_ones(wanted(words_[word]))); ++word)
    rest -= count;
  return word * 64 + sdsl::bits::sel(wanted(words_[word]), static_cast<std::uint32_t>(rest + 1));
}

std::uint64_t RankSelectBits::select1(std::uint64_t i) const noexcept {
  return select<true>(i, ones_);
}

std::uint64_t RankSelectBits::select0(std::uint64_t i) const noexcept {
  return select<false>(i, zeros_);
}

std::uint64_t RankSelectBits::ones_from(std::uint64_t position) const noexcept {
  std::uint64_t length = 0;
  for (auto word = static_cast<std::size_t>(position / 64); word < words_.size(); ++word) {
    const unsigned offset = word == position / 64 ? static_cast<unsigned>(position % 64) : 0;
    const auto run = static_cast<unsigned>(std::countr_one(words_[word] >> offset));
    length += run;
    if (run < 64 - offset) break;
  }
  return length;
}

std::size_t RankSelectBits::heap_bytes() const noexcept {
  return words_.capacity() * sizeof(std::uint64_t) +
         (block_rank_.capacity() + ones_.block.capacity() + zeros_.block.capacity()) *
             sizeof(std::uint32_t);
}

std::size_t RankSelectBits::estimate_heap_bytes(std::uint64_t bit_count, std::uint64_t ones,
                                                Select0 select0) {
  const std::size_t blocks = blocks_for(bit_count);
  std::size_t samples = sample_count(bit_count, ones);
  if (select0 == Select0::kYes) samples += sample_count(bit_count, bit_count - ones);
  return blocks * kBlockBits / 8 + (blocks + 1 + samples) * sizeof(std::uint32_t);
}

}  // namespace scomm::group
