#include "scomm/group/compressed_list.hpp"

#include <zstd.h>

#include <algorithm>
#include <cmath>

namespace scomm::group {
namespace {

constexpr int kZstdLevel = 9;

std::uint32_t zigzag(std::int64_t delta) {
  return static_cast<std::uint32_t>(delta < 0 ? (-delta) * 2 - 1 : delta * 2);
}
std::int64_t unzigzag(std::uint32_t code) {
  return code & 1 ? -static_cast<std::int64_t>((code + 1) / 2)
                  : static_cast<std::int64_t>(code / 2);
}

std::size_t block_count(Rank n) {
  return static_cast<std::size_t>((n + CompressedList::kBlock - 1) / CompressedList::kBlock);
}

}  // namespace

CompressedList::CompressedList(std::span<const Rank> world_ranks)
    : n_(static_cast<Rank>(world_ranks.size())),
      ascending_(std::is_sorted(world_ranks.begin(), world_ranks.end())) {
  std::vector<std::uint32_t> codes;
  std::vector<std::uint8_t> scratch;
  block_offsets_.push_back(0);
  for (std::size_t start = 0; start < world_ranks.size(); start += kBlock) {
    const std::size_t end = std::min(world_ranks.size(), start + kBlock);
    codes.clear();
    std::int64_t previous = 0;
    for (std::size_t i = start; i < end; ++i) {
      codes.push_back(zigzag(world_ranks[i] - previous));
      previous = world_ranks[i];
    }
    scratch.resize(ZSTD_compressBound(codes.size() * 4));
    const std::size_t size =
        ZSTD_compress(scratch.data(), scratch.size(), codes.data(), codes.size() * 4, kZstdLevel);
    data_.insert(data_.end(), scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(size));
    block_offsets_.push_back(static_cast<std::uint32_t>(data_.size()));
  }
  data_.shrink_to_fit();
  block_offsets_.shrink_to_fit();
}

void CompressedList::decompress(std::size_t block, std::vector<Rank>& out) const noexcept {
  const std::size_t count =
      std::min<std::size_t>(kBlock, static_cast<std::size_t>(n_) - block * kBlock);
  std::vector<std::uint32_t> codes(count);
  ZSTD_decompress(codes.data(), count * 4, data_.data() + block_offsets_[block],
                  block_offsets_[block + 1] - block_offsets_[block]);
  out.resize(count);
  std::int64_t value = 0;
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<Rank>(value += unzigzag(codes[i]));
}

// Runs visit(values of `block`) under the cache lock, decompressing only on a cache miss.
template <typename Visit>
void CompressedList::with_block(std::size_t block, Visit visit) const noexcept {
  std::lock_guard lock(cache_mutex_);
  if (cached_block_ != block) {
    decompress(block, cache_);
    cached_block_ = block;
  }
  visit(cache_);
}

Rank CompressedList::select(Rank rank) const noexcept {
  Rank value = kUndefined;
  with_block(static_cast<std::size_t>(rank / kBlock), [&](const std::vector<Rank>& v) {
    value = v[static_cast<std::size_t>(rank % kBlock)];
  });
  return value;
}

Rank CompressedList::rank_of(Rank world) const noexcept {
  Rank found = kUndefined;
  for (std::size_t b = 0; b < block_count(n_) && found == kUndefined; ++b)
    with_block(b, [&](const std::vector<Rank>& v) {
      const auto it = std::find(v.begin(), v.end(), world);
      if (it != v.end()) found = static_cast<Rank>(b * kBlock) + static_cast<Rank>(it - v.begin());
    });
  return world < 0 ? kUndefined : found;
}

void CompressedList::decode(Rank first, std::span<Rank> out) const noexcept {
  std::size_t done = 0;
  while (done < out.size()) {
    const Rank rank = first + static_cast<Rank>(done);
    with_block(static_cast<std::size_t>(rank / kBlock), [&](const std::vector<Rank>& v) {
      const auto begin = v.begin() + rank % kBlock;
      const std::size_t take =
          std::min<std::size_t>(out.size() - done, static_cast<std::size_t>(v.end() - begin));
      std::copy(begin, begin + static_cast<std::ptrdiff_t>(take),
                out.begin() + static_cast<std::ptrdiff_t>(done));
      done += take;
    });
  }
}

std::size_t CompressedList::bytes() const noexcept {
  return sizeof(*this) + data_.capacity() + block_offsets_.capacity() * sizeof(std::uint32_t) +
         cache_.capacity() * sizeof(Rank);
}

namespace {

// Deltas of a list of n members of W take about lg(W/n)+2 bits each after zstd when sorted,
// close to lg W otherwise; plus the one-block cache and a frame header per block.
std::size_t estimate_bytes(const SetStats& s, bool ascending) {
  const double spread = ascending
                            ? std::max(2.0, static_cast<double>(s.universe) / std::max(s.n, 1))
                            : std::max(2.0, static_cast<double>(s.universe));
  const double bits_each = std::log2(spread) + (ascending ? 2.0 : 1.0);
  const std::size_t cache =
      std::min<std::size_t>(static_cast<std::size_t>(s.n), CompressedList::kBlock);
  return sizeof(CompressedList) + cache * sizeof(Rank) +
         static_cast<std::size_t>(static_cast<double>(s.n) * bits_each / 8.0) +
         16 * block_count(s.n);
}
// A miss decompresses a block (~2 us); sequential access mostly hits the cache.
double estimate_ns(const SetStats&) {
  return 2000.0;
}
MapPtr build(std::span<const Rank> world_ranks, Rank) {
  return std::make_shared<CompressedList>(world_ranks);
}

}  // namespace

const ListKind kCompressedListKind{"zstd-blocks", estimate_bytes, estimate_ns, build};

}  // namespace scomm::group
