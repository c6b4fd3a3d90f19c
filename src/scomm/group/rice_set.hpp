// rice: gaps between members in Golomb-Rice code with the parameter fitted to the mean gap,
// and an absolute sample every kBlock members (thesis 4.1.4's gap coding, with the code that is
// optimal for the geometric gaps of random sets: ~1.1x the information-theoretic bound).
#pragma once

#include <vector>

#include "scomm/group/representation.hpp"

namespace scomm::group {

class RiceSet final : public OrderedSet {
 public:
  static constexpr Rank kBlock = 128;

  RiceSet(std::span<const Rank> sorted, Rank universe);
  Rank size() const noexcept override { return n_; }
  Rank select(Rank i) const noexcept override;
  Rank rank(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "rice"; }

  static unsigned parameter(Rank n, Rank universe);

 private:
  struct Sample {
    Rank first;              // member kBlock * b
    std::uint32_t position;  // bit position of the gap code of member kBlock * b + 1
  };
  class Reader;

  Rank n_;
  unsigned k_;
  std::vector<std::uint64_t> words_;
  std::vector<Sample> samples_;
};

extern const SetKind kRiceSetKind;

}  // namespace scomm::group
