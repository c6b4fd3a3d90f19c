#include "scomm/group/ranges_map.hpp"

#include <algorithm>
#include <numeric>

namespace scomm::group {
namespace {

Rank last_member(const Run& run) {
  return static_cast<Rank>(run.first + static_cast<std::int64_t>(run.count - 1) * run.stride);
}
Rank high(const Run& run) {
  return std::max(run.first, last_member(run));
}
Rank low(const Run& run) {
  return std::min(run.first, last_member(run));
}

// End (exclusive) of the maximal run of equal differences starting at `start`.
std::size_t run_end(std::span<const Rank> values, std::size_t start) {
  std::size_t end = start + 1;
  if (end == values.size()) return end;
  const std::int64_t step = static_cast<std::int64_t>(values[end]) - values[start];
  while (end + 1 < values.size() &&
         values[end + 1] - static_cast<std::int64_t>(values[end]) == step)
    ++end;
  return end + 1;
}

}  // namespace

std::vector<Run> RangesMap::split_runs(std::span<const Rank> values) {
  std::vector<Run> runs;
  for (std::size_t start = 0; start < values.size();) {
    const std::size_t end = run_end(values, start);
    const Rank stride = end - start > 1 ? values[start + 1] - values[start] : 1;
    runs.push_back({values[start], static_cast<Rank>(end - start), stride});
    start = end;
  }
  return runs;
}

Rank RangesMap::count_runs(std::span<const Rank> values) {
  Rank count = 0;
  for (std::size_t start = 0; start < values.size(); start = run_end(values, start)) ++count;
  return count;
}

RangesMap::RangesMap(std::vector<Run> runs, std::vector<Rank> prefix, std::vector<Rank> by_low)
    : runs_(std::move(runs)), prefix_(std::move(prefix)), by_low_(std::move(by_low)) {
  ascending_ = std::is_sorted(by_low_.begin(), by_low_.end()) &&
               std::all_of(runs_.begin(), runs_.end(),
                           [](const Run& r) { return r.count == 1 || r.stride > 0; });
}

namespace {

std::vector<Rank> runs_by_low(const std::vector<Run>& runs) {
  std::vector<Rank> by_low(runs.size());
  std::iota(by_low.begin(), by_low.end(), 0);
  std::sort(by_low.begin(), by_low.end(), [&](Rank a, Rank b) {
    return low(runs[static_cast<std::size_t>(a)]) < low(runs[static_cast<std::size_t>(b)]);
  });
  return by_low;
}

}  // namespace

bool RangesMap::interleaved(const std::vector<Run>& runs) {
  const std::vector<Rank> by_low = runs_by_low(runs);
  for (std::size_t k = 1; k < by_low.size(); ++k)
    if (high(runs[static_cast<std::size_t>(by_low[k - 1])]) >=
        low(runs[static_cast<std::size_t>(by_low[k])]))
      return true;
  return false;
}

MapPtr RangesMap::make(std::vector<Run> runs) {
  if (interleaved(runs)) return nullptr;
  std::vector<Rank> prefix(runs.size());
  Rank total = 0;
  for (std::size_t k = 0; k < runs.size(); ++k) prefix[k] = total += runs[k].count;
  std::vector<Rank> by_low = runs_by_low(runs);
  return std::make_shared<RangesMap>(std::move(runs), std::move(prefix), std::move(by_low));
}

std::size_t RangesMap::run_of(Rank rank) const noexcept {
  return static_cast<std::size_t>(std::upper_bound(prefix_.begin(), prefix_.end(), rank) -
                                  prefix_.begin());
}

Rank RangesMap::select(Rank rank) const noexcept {
  const std::size_t k = run_of(rank);
  const Rank before = k == 0 ? 0 : prefix_[k - 1];
  return static_cast<Rank>(runs_[k].first +
                           static_cast<std::int64_t>(rank - before) * runs_[k].stride);
}

Rank RangesMap::rank_of(Rank world) const noexcept {
  auto it = std::upper_bound(by_low_.begin(), by_low_.end(), world, [&](Rank w, Rank k) {
    return w < low(runs_[static_cast<std::size_t>(k)]);
  });
  if (it == by_low_.begin()) return kUndefined;
  const auto k = static_cast<std::size_t>(*(it - 1));
  const Run& run = runs_[k];
  const std::int64_t d = static_cast<std::int64_t>(world) - run.first;
  if (d % run.stride != 0) return kUndefined;
  const std::int64_t offset = d / run.stride;
  if (offset < 0 || offset >= run.count) return kUndefined;
  return static_cast<Rank>((k == 0 ? 0 : prefix_[k - 1]) + offset);
}

void RangesMap::decode(Rank first, std::span<Rank> out) const noexcept {
  std::size_t k = run_of(first);
  Rank offset = first - (k == 0 ? 0 : prefix_[k - 1]);
  for (auto& x : out) {
    x = static_cast<Rank>(runs_[k].first + static_cast<std::int64_t>(offset) * runs_[k].stride);
    if (++offset == runs_[k].count) {
      offset = 0;
      ++k;
    }
  }
}

std::size_t RangesMap::bytes() const noexcept {
  return sizeof(*this) + runs_.capacity() * sizeof(Run) +
         (prefix_.capacity() + by_low_.capacity()) * sizeof(Rank);
}

}  // namespace scomm::group
