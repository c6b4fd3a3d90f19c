// ranges: a list of progressions (first, count, stride), as MPI_Group_range_incl describes groups;
// for maps made of a few long runs, e.g. alternating ranges of 100. select is a binary search on
// prefix counts, rank_of a binary search on the runs sorted by their lowest member.
#pragma once

#include <vector>

#include "scomm/group/rank_map.hpp"

namespace scomm::group {

struct Run {
  Rank first;
  Rank count;
  Rank stride;  // nonzero when count > 1
};

class RangesMap final : public RankMap {
 public:
  // nullptr when the runs' spans interleave (then rank_of could not binary-search them).
  static MapPtr make(std::vector<Run> runs);
  static bool interleaved(const std::vector<Run>& runs);
  // The greedy split of `values` into maximal runs of equal differences; a pair with a step
  // other than +-1 is left as two single members, so runs do not bridge separate ranges.
  static std::vector<Run> split_runs(std::span<const Rank> values);
  static Rank count_runs(std::span<const Rank> values);

  Rank size() const noexcept override { return prefix_.empty() ? 0 : prefix_.back(); }
  Rank select(Rank rank) const noexcept override;
  Rank rank_of(Rank world) const noexcept override;
  void decode(Rank first, std::span<Rank> out) const noexcept override;
  std::size_t bytes() const noexcept override;
  std::string_view name() const noexcept override { return "ranges"; }
  bool ascending() const noexcept override { return ascending_; }

  RangesMap(std::vector<Run> runs, std::vector<Rank> prefix, std::vector<Rank> by_low);

 private:
  std::size_t run_of(Rank rank) const noexcept;

  std::vector<Run> runs_;
  std::vector<Rank> prefix_;  // prefix_[k] = members in runs 0..k
  std::vector<Rank> by_low_;  // run indices sorted by lowest member
  bool ascending_ = false;
};

}  // namespace scomm::group
