// zstd-blocks: a list for cold maps with no pattern; blocks of kBlock members, each stored as
// zigzag deltas compressed by zstd, with a cache of the last decompressed block (thesis 4.3.2,
// with zstd in place of bzip2).
#pragma once

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
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "zstd-blocks"; }
  bool ascending() const noexcept override { return ascending_; }

 private:
  void decompress(std::size_t block, std::vector<Rank>& out) const noexcept;
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
