#include "scomm/coll/agreement.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <ranges>
#include <span>
#include <string>
#include <vector>

#include "scomm/base/environment.hpp"
#include "scomm/coll/op_domain.hpp"
#include "scomm/comm/channel_reducer.hpp"
#include "scomm/group/group.hpp"
#include "scomm/group/progression_algebra.hpp"

namespace scomm::coll {
namespace {

enum Field { kInvalid, kOperation, kRoot, kBytes, kOp, kDigest, kFields };
using Fields = std::array<std::int64_t, kFields>;

// Bytes of a block; -1 for none, -2 when its own checks will reject it (MPI is not asked about
// a null type).
std::int64_t block_bytes(const std::optional<Signature::Block>& block) {
  if (!block) return -1;
  if (block->count < 0 || block->type == MPI_DATATYPE_NULL) return -2;
  return bytes_of(block->count, block->type);
}

// Predefined operations by position; a user-defined one is -2 where it commutes, -3 where not
// (functions cannot be compared across processes, but whether they commute picks the schedule),
// none -1. `valid`: the member's own checks passed (MPI is not asked about an invalid handle).
std::int64_t op_index(MPI_Op op, bool valid) {
  if (op == MPI_OP_NULL) return -1;
  const int index = predefined_op_index(op);
  if (index >= 0) return index;
  return !valid || is_commutative(op) ? -2 : -3;
}

// FNV-1a of `values`, halved to stay a non-negative int64.
template <std::ranges::input_range Values>
std::int64_t fnv1a(Values&& values) {
  std::uint64_t hash = 14695981039346656037u;
  for (const std::int64_t value : values)
    hash = (hash ^ static_cast<std::uint64_t>(value)) * 1099511628211u;
  return static_cast<std::int64_t>(hash >> 1);
}

// A digest of the blocks counts[0, n) of `type` in bytes (members may name one signature by
// different types); 0 for none, or where the member's own checks failed.
std::int64_t digest(const Signature::Counts& counts, int n, bool valid) {
  if (counts.each == nullptr || !valid) return 0;
  const std::int64_t type_bytes = bytes_of(1, counts.type);
  return fnv1a(std::span(counts.each, static_cast<std::size_t>(n)) |
               std::views::transform([&](int count) { return count * type_bytes; }));
}

// The members' largest value of every word, in place: one MAX on `tag`, its messages marked by
// `stamp`.
void maximum(const Call& call, std::span<std::int64_t> words, int tag, std::uint64_t stamp) {
  comm::ChannelReducer reducer(call.runtime.engine(), call.comm.channel_ptr(), tag, true, stamp);
  reducer.start_max(words);
  while (!reducer.test()) call.runtime.engine().progress_background();
}

// The members' smallest and largest value of every field: one MAX over (v, -v).
template <std::size_t kCount>
auto extremes(const Call& call, const std::array<std::int64_t, kCount>& mine, int tag,
              std::uint64_t stamp) {
  using Values = std::array<std::int64_t, kCount>;
  std::array<std::int64_t, 2 * kCount> words{};
  for (std::size_t f = 0; f < kCount; ++f) {
    words[2 * f] = mine[f];
    words[2 * f + 1] = -mine[f];
  }
  maximum(call, words, tag, stamp);
  Values low{}, high{};
  for (std::size_t f = 0; f < kCount; ++f) {
    low[f] = -words[2 * f + 1];
    high[f] = words[2 * f];
  }
  return std::pair{low, high};
}

// extremes() of a collective's fields, on its own tag in the parent's order of collectives.
auto collective_extremes(const Call& call, const Fields& mine) {
  constexpr std::uint64_t kStamp = 0x5c0a96ee;
  const p2p::HeldInternalTags tag =
      comm::hold_internal_tags(call.runtime, call.comm, call.comm.channel().next_collective(), 1);
  return extremes(call, mine, tag[0], kStamp);
}

// What a local creation is, as its members compare it: its kind and three numbers.
enum LocalCreation : std::int64_t { kRange = 1, kFromGroup = 2, kGroupInvalid = 3 };
using CreationFields = std::array<std::int64_t, 4>;

// Local creation's agreements go on the tag of its block allocations (in the order of local
// creations, not of collectives: members need not order the two alike), apart from those by
// their stamp.
constexpr std::uint64_t kLocalCreationStamp = 0x10ca1c8ea7e;
int local_creation_tag(const Call& call) {
  return call.runtime.layout().internal_tag(context::TagLayout::kFreshBlockTag);
}

[[noreturn]] void different_local_creations(const std::string& what) {
  throw Error(ErrorClass::kArg,
              "members of the communicator made different local creations (SCOMM_COLL_CHECK): " +
                  what + "; local creations must be made in the same order");
}

// The members' smallest and largest fields of their local creations.
auto local_creation_extremes(const Call& call, const CreationFields& mine) {
  return extremes(call, mine, local_creation_tag(call), kLocalCreationStamp);
}

void agree_on_local_creation(const Call& call, const CreationFields& mine) {
  const auto [low, high] = local_creation_extremes(call, mine);
  if (low != high)
    different_local_creations("create_range and create_from_group, or different groups");
}

// A range as its members compare it: its computed ranks {first, count, stride} (stride 1 for one
// rank), whatever `last` bounded them; {-1, -1, -1} where it is invalid.
CreationFields normalized_range(int size, int first, int last, int stride) {
  try {
    const group::Progression terms = group::range_progression({first, last, stride}, size, "");
    return {kRange, terms.base, terms.count, terms.count == 1 ? 1 : terms.stride};
  } catch (const Error&) {
    return {kRange, -1, -1, -1};
  }
}

std::string text_of(const CreationFields& range) {
  if (range[2] < 0) return "an invalid range";
  return "the range of " + std::to_string(range[2]) + " ranks from " + std::to_string(range[1]) +
         " by " + std::to_string(range[3]);
}

// Ranges that differ agree where each shares no member with any other (each half creating its
// own half is one creation): every member's range gathered at every member (O(P) memory, in
// check mode alone), each compares its own with the others, and one MAX tells a clash to all.
void agree_on_disjoint_ranges(const Call& call, const CreationFields& mine) {
  const auto size = static_cast<std::size_t>(call.comm.size());
  constexpr std::size_t kWords = 3;
  std::vector<std::int64_t> all(kWords * size, std::numeric_limits<std::int64_t>::min());
  const auto self = static_cast<std::size_t>(call.comm.rank());
  std::copy(mine.begin() + 1, mine.end(), all.begin() + static_cast<std::ptrdiff_t>(kWords * self));
  maximum(call, all, local_creation_tag(call), kLocalCreationStamp);
  const auto range_at = [&](std::size_t member) {
    return CreationFields{kRange, all[kWords * member], all[kWords * member + 1],
                          all[kWords * member + 2]};
  };
  const group::Box own = group::Box::progression(mine[1], static_cast<int>(mine[2]), mine[3]);
  std::array<std::int64_t, 1> clash{-1};  // the largest rank whose range clashes with another
  for (std::size_t member = 0; member < size && clash[0] < 0; ++member) {
    const CreationFields other = range_at(member);
    if (other == mine) continue;
    const group::Box theirs =
        group::Box::progression(other[1], static_cast<int>(other[2]), other[3]);
    const auto common = group::intersect_progressions(own, theirs);  // of two progressions: one
    if (mine[2] < 0 || other[2] < 0 || !common || common->size() > 0)
      clash[0] = static_cast<std::int64_t>(self);
  }
  maximum(call, clash, local_creation_tag(call), kLocalCreationStamp);
  if (clash[0] < 0) return;
  const CreationFields clashing = range_at(static_cast<std::size_t>(clash[0]));
  different_local_creations(text_of(clashing) + " (at rank " + std::to_string(clash[0]) +
                            ") shares members with a different range");
}

// A digest of the group's members' world ranks in order.
std::int64_t members_digest(const group::Group& group) {
  std::vector<group::Rank> members(static_cast<std::size_t>(group.size()));
  group.map().decode(0, members);
  return fnv1a(members);
}

[[noreturn]] void disagree(ErrorClass error_class, const std::string& what) {
  throw Error(error_class, "members of the collective disagree (SCOMM_COLL_CHECK): " + what);
}

// The agreement itself, `invalid` being this member's own checks' error (null: they passed).
void agree(const Call& call, const Signature& signature, const Error* invalid) {
  const Fields mine{invalid != nullptr ? static_cast<std::int64_t>(invalid->error_class()) : 0,
                    static_cast<std::int64_t>(signature.operation),
                    signature.root,
                    block_bytes(signature.block),
                    op_index(signature.op, invalid == nullptr),
                    digest(signature.same_counts, call.comm.size(), invalid == nullptr)};
  const auto [low, high] = collective_extremes(call, mine);
  if (high[kInvalid] != 0) {
    const auto error_class = static_cast<ErrorClass>(high[kInvalid]);
    if (invalid != nullptr && invalid->error_class() == error_class) throw *invalid;
    disagree(error_class, "arguments invalid at another member");
  }
  const auto text = [&](Field f) {
    return std::to_string(low[f]) + " and " + std::to_string(high[f]);
  };
  if (low[kOperation] != high[kOperation])
    disagree(ErrorClass::kArg,
             "they called different collectives (" +
                 std::string(name_of(static_cast<Operation>(low[kOperation]))) + " and " +
                 std::string(name_of(static_cast<Operation>(high[kOperation]))) + ")");
  if (low[kRoot] != high[kRoot]) disagree(ErrorClass::kRoot, "roots " + text(kRoot));
  if (low[kBytes] != high[kBytes])
    disagree(ErrorClass::kCount,
             "blocks of " + text(kBytes) + " bytes (-2: arguments invalid at some member)");
  if (low[kOp] != high[kOp])
    disagree(ErrorClass::kOp,
             "different reduction operations (of user-defined ones, one commutes, one not)");
  if (low[kDigest] != high[kDigest]) disagree(ErrorClass::kCount, "different count arrays");
}

}  // namespace

bool check_mode_from_environment() {
  return base::switched_on("SCOMM_COLL_CHECK", false);
}

void agree_on_range(const Call& call, int first, int last, int stride) {
  const CreationFields mine = normalized_range(call.comm.size(), first, last, stride);
  const auto [low, high] = local_creation_extremes(call, mine);
  if (low == high) return;
  // Every member knows now whether all made ranges: those alone compare further.
  if (low[0] != kRange || high[0] != kRange)
    different_local_creations("create_range and create_from_group");
  agree_on_disjoint_ranges(call, mine);
}

void agree_on_group(const Call& call, const group::Group* group) {
  if (group == nullptr) {
    agree_on_local_creation(call, {kGroupInvalid, 0, 0, 0});
    return;
  }
  agree_on_local_creation(call, {kFromGroup, group->size(), members_digest(*group), 0});
}

void settle_agreement(const Call& call, const Error* invalid) {
  call.agreement->settled = true;
  agree(call, call.agreement->signature, invalid);
}

}  // namespace scomm::coll
