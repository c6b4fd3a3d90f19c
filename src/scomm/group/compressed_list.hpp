// zstd-blocks: a list for cold maps with no pattern (thesis 4.3.2, zstd in place of bzip2). The
// members are cut into blocks of kBlock; each block is stored as the smaller of two encodings,
// compressed by zstd:
//   - delta: zigzag differences of consecutive world ranks (a sorted or locally ordered list has
//     small differences),
//   - raw: the world ranks themselves (better for random orders, whose differences are twice as
//     wide as the ranks),
// both split into byte planes (all low bytes, then all second bytes, ...) holding only as many
// planes as the block's largest value needs. The planes let zstd's entropy coder see each byte
// position on its own: measured on 5,000 sorted random members of 200,000 (blocks of 1,000, level
// 9), delta words give 10.9 bits a member, delta byte planes 8.0 (the bound is 6.8); on the same
// members in random order raw planes give 19.2 bits and delta words 23.7.
//
// select decompresses the member's block into a one-block cache unless it is there already; a
// mutex guards the cache, so concurrent const calls are safe (and serialised).
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class CompressedList final : public RankMap {
 public:
  static constexpr Rank kBlock = 1000;

  explicit CompressedList(std::span<const Rank> world_ranks);
  Rank size() const noexcept override { return n_; }
  Rank select(Rank rank) const noexcept override;
  Rank rank_of(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  // Compressed blocks, their offsets and the cache (allocated at construction, so this does not
  // change with use).
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "zstd-blocks"; }
  bool ascending() const noexcept override { return ascending_; }

 private:
  std::size_t block_count() const noexcept { return block_offsets_.size() - 1; }
  void decompress(std::size_t block, std::vector<Rank>& out) const noexcept;
  // Runs visit(members of `block`) under the cache lock, decompressing only on a cache miss.
  template <typename Visit>
  void with_block(std::size_t block, Visit visit) const noexcept;

  Rank n_;
  bool ascending_;
  std::vector<std::uint8_t> data_;
  std::vector<std::uint32_t> block_offsets_;  // block b spans data_[offsets[b], offsets[b+1])
  mutable std::mutex cache_mutex_;
  mutable std::size_t cached_block_ = SIZE_MAX;
  mutable std::vector<Rank> cache_;
};

extern const ListKind kCompressedListKind;

}  // namespace scomm::group
