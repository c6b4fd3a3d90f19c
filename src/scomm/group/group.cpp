#include "scomm/group/group.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "scomm/base/error.hpp"
#include "scomm/group/builder.hpp"
#include "scomm/group/direct_map.hpp"
#include "scomm/group/progression_algebra.hpp"
#include "scomm/group/regular_map.hpp"

namespace scomm::group {
namespace {

[[noreturn]] void fail(ErrorClass error_class, const std::string& message) {
  throw Error(error_class, message);
}

// Validates ranks of a group of `size` and returns them sorted; duplicates are an error.
std::vector<Rank> sorted_distinct_ranks(std::span<const int> ranks, Rank size, const char* what) {
  std::vector<Rank> sorted(ranks.begin(), ranks.end());
  for (int r : ranks) check_rank(r, size, what);
  std::sort(sorted.begin(), sorted.end());
  auto dup = std::adjacent_find(sorted.begin(), sorted.end());
  if (dup != sorted.end())
    fail(ErrorClass::kRank, "rank " + std::to_string(*dup) + " appears twice in " + what);
  return sorted;
}

// Validates MPI range triplets of a group of `size`: each a progression of its ranks.
std::vector<Progression> progressions_of(std::span<const RangeTriplet> ranges, Rank size,
                                         const char* what) {
  std::vector<Progression> progressions;
  for (const RangeTriplet& range : ranges)
    progressions.push_back(range_progression(range, size, what));
  return progressions;
}

// Validates MPI range triplets and returns the ranks they denote, in order.
std::vector<Rank> expand_ranges(std::span<const RangeTriplet> ranges, Rank size, const char* what) {
  std::vector<Rank> ranks;
  for (const Progression& p : progressions_of(ranges, size, what))
    for (Rank i = 0; i < p.count; ++i) ranks.push_back(static_cast<Rank>(p.base + i * p.stride));
  sorted_distinct_ranks(ranks, size, what);
  return ranks;
}

// The ranks of [0, size) not in `sorted_excluded`, as a generator for build_map.
MapPtr complement_map(std::span<const Rank> sorted_excluded, Rank size, const MapPolicy& policy) {
  std::size_t next = 0;  // first excluded rank not yet passed
  Rank candidate = 0;
  auto kept = [&](Rank r) {
    if (r == 0) {
      next = 0;
      candidate = 0;
    }
    for (; next < sorted_excluded.size() && sorted_excluded[next] == candidate; ++next) ++candidate;
    return candidate++;
  };
  return build_map(size - static_cast<Rank>(sorted_excluded.size()), kept, policy);
}

Group derived(const Group& parent, const MapPtr& child, const MapPolicy& policy) {
  return Group(compose(parent.map_ptr(), child, policy), parent.self_world());
}

// Members of `a` kept when `keep(world)` holds, in a's order.
Group filter(const Group& a, const std::function<bool(Rank)>& keep, const MapPolicy& policy) {
  const RankMap& map = a.map();
  Rank count = 0;
  for (Rank r = 0; r < map.size(); ++r) count += keep(map.select(r)) ? 1 : 0;
  Rank next = 0;
  auto member = [&](Rank r) {
    if (r == 0) next = 0;
    while (!keep(map.select(next))) ++next;
    return map.select(next++);
  };
  return Group(build_map(count, member, policy), a.self_world());
}

// The caller's world rank, known to either operand of a set operation (the empty group and a
// virtual world know no caller): the result's members come from both, the caller is one process.
Rank known_self(const Group& a, const Group& b) {
  return a.self_world() != kUndefined ? a.self_world() : b.self_world();
}

}  // namespace

void check_rank(int rank, Rank size, const char* what) {
  if (rank < 0 || rank >= size)
    fail(ErrorClass::kRank, "invalid rank " + std::to_string(rank) + " in " + what +
                                " (group size " + std::to_string(size) + ")");
}

Progression range_progression(const RangeTriplet& range, Rank size, const char* what) {
  const auto [first, last, stride] = range;
  if (stride == 0) fail(ErrorClass::kArg, std::string("stride 0 in ") + what);
  check_rank(first, size, what);
  if (last != first && (last > first) != (stride > 0))
    fail(ErrorClass::kArg, "range (" + std::to_string(first) + ", " + std::to_string(last) + ", " +
                               std::to_string(stride) + ") runs away from its end in " + what);
  const std::int64_t count = (std::int64_t{last} - first) / stride + 1;
  // Between first and last, so an int.
  check_rank(static_cast<int>(first + (count - 1) * stride), size, what);
  return {first, static_cast<Rank>(count), stride};
}

Group::Group() : map_(std::make_shared<DirectMap>(0)) {}

Group::Group(MapPtr map, Rank self_world) : map_(std::move(map)), self_world_(self_world) {}

Group Group::world(Rank n, Rank self_world) {
  if (n < 0) fail(ErrorClass::kArg, "negative world size " + std::to_string(n));
  return Group(std::make_shared<DirectMap>(n), self_world);
}

Rank Group::rank() const noexcept {
  return self_world_ == kUndefined ? kUndefined : map_->rank_of(self_world_);
}

Group incl(const Group& group, std::span<const int> ranks, const MapPolicy& policy) {
  sorted_distinct_ranks(ranks, group.size(), "group incl");
  const std::vector<Rank> child(ranks.begin(), ranks.end());
  return derived(group, build_map(child, policy), policy);
}

Group excl(const Group& group, std::span<const int> ranks, const MapPolicy& policy) {
  const auto excluded = sorted_distinct_ranks(ranks, group.size(), "group excl");
  return derived(group, complement_map(excluded, group.size(), policy), policy);
}

Group range_incl(const Group& group, std::span<const RangeTriplet> ranges,
                 const MapPolicy& policy) {
  if (ranges.size() == 1) {  // one progression (no duplicates): its map, never its ranks listed
    const Progression terms = progressions_of(ranges, group.size(), "group range incl").front();
    return derived(group, make_regular_map(Box(terms)), policy);
  }
  const auto child = expand_ranges(ranges, group.size(), "group range incl");
  return derived(group, build_map(child, policy), policy);
}

Group range_excl(const Group& group, std::span<const RangeTriplet> ranges,
                 const MapPolicy& policy) {
  auto excluded = expand_ranges(ranges, group.size(), "group range excl");
  std::sort(excluded.begin(), excluded.end());
  return derived(group, complement_map(excluded, group.size(), policy), policy);
}

Group set_union(const Group& a, const Group& b, const MapPolicy& policy) {
  const RankMap& first = a.map();
  auto extra = [&first](Rank w) { return first.rank_of(w) == kUndefined; };
  const Group tail = filter(b, extra, policy);
  const Rank na = first.size();
  auto member = [&](Rank r) { return r < na ? first.select(r) : tail.map().select(r - na); };
  return Group(build_map(na + tail.size(), member, policy), known_self(a, b));
}

Group intersection(const Group& a, const Group& b, const MapPolicy& policy) {
  const auto box_a = a.map().as_box(), box_b = b.map().as_box();
  if (box_a && box_b)
    if (auto box = intersect_progressions(*box_a, *box_b))
      return Group(make_regular_map(*box), known_self(a, b));
  return filter(
             a, [&b](Rank w) { return b.map().rank_of(w) != kUndefined; }, policy)
      .with_self(known_self(a, b));
}

Group difference(const Group& a, const Group& b, const MapPolicy& policy) {
  return filter(
             a, [&b](Rank w) { return b.map().rank_of(w) == kUndefined; }, policy)
      .with_self(known_self(a, b));
}

Comparison compare(const Group& a, const Group& b) {
  if (a.size() != b.size()) return Comparison::kUnequal;
  if (a.map_ptr() == b.map_ptr()) return Comparison::kIdent;
  const auto box_a = a.map().as_box();
  if (box_a && box_a == b.map().as_box()) return Comparison::kIdent;
  bool same_order = true;
  for (Rank r = 0; r < a.size(); ++r) {
    const Rank in_b = b.map().rank_of(a.map().select(r));
    if (in_b == kUndefined) return Comparison::kUnequal;
    same_order = same_order && in_b == r;
  }
  return same_order ? Comparison::kIdent : Comparison::kSimilar;
}

void translate_ranks(const Group& from, std::span<const int> ranks, const Group& to,
                     std::span<int> out, int proc_null) {
  for (int r : ranks)
    if (r != proc_null) check_rank(r, from.size(), "group translate ranks");
  for (std::size_t i = 0; i < ranks.size(); ++i)
    out[i] = ranks[i] == proc_null ? proc_null : to.map().rank_of(from.map().select(ranks[i]));
}

}  // namespace scomm::group
