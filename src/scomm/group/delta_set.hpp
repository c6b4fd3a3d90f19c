// delta: gaps between members in Elias-delta code, an absolute sample every kSample members
// (thesis 4.1.4). select decodes inside one block; rank binary-searches the samples first.
#pragma once

#include <sdsl/enc_vector.hpp>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class DeltaSet final : public OrderedSet {
 public:
  static constexpr std::uint32_t kSample = 32;

  explicit DeltaSet(std::span<const Rank> sorted);
  Rank size() const noexcept override { return n_; }
  Rank select(Rank i) const noexcept override {
    return static_cast<Rank>(gaps_[static_cast<std::size_t>(i)]);
  }
  Rank rank(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override { return sizeof(*this) + sdsl::size_in_bytes(gaps_); }
  std::string_view name() const noexcept override { return "delta"; }

 private:
  // out[k] = member kSample*block + k, for every member of the block; returns their number.
  std::size_t decode_block(std::size_t block, std::uint64_t* out) const noexcept;

  Rank n_;
  sdsl::enc_vector<sdsl::coder::elias_delta, kSample> gaps_;
};

extern const SetKind kDeltaSetKind;

}  // namespace scomm::group
