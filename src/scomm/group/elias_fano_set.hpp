// elias-fano: n(2 + lg(W/n)) bits, within a few percent of the information-theoretic bound for
// random sets (sdsl's sd_vector with its select and rank supports).
#pragma once

#include <sdsl/sd_vector.hpp>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class EliasFanoSet final : public OrderedSet {
 public:
  EliasFanoSet(std::span<const Rank> sorted, Rank universe);
  EliasFanoSet(const EliasFanoSet&) = delete;
  EliasFanoSet& operator=(const EliasFanoSet&) = delete;

  Rank size() const noexcept override { return n_; }
  Rank select(Rank i) const noexcept override { return static_cast<Rank>(select_(i + 1)); }
  Rank rank(Rank world) const noexcept override;
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "elias-fano"; }

 private:
  Rank n_;
  sdsl::sd_vector<> bits_;
  sdsl::sd_vector<>::rank_1_type rank_;
  sdsl::sd_vector<>::select_1_type select_;
};

extern const SetKind kEliasFanoSetKind;

}  // namespace scomm::group
