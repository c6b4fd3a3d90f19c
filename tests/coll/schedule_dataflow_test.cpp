// Every schedule builder of the collective layer run symbolically at 1..24 ranks: each element
// carries which ranks' contributions it holds, in the order they were combined, and the index of
// the input element they came from. The run follows the executor's rules (a round's sends read
// their blocks when posted, its receives complete before its local steps; messages between two
// ranks match in order) and checks at the end, against MPI's definition of the operation, that:
// - every result element holds exactly the right contributions, in rank order for a builder that
//   must serve non-commutative operations (any order for the commutative-only ones);
// - nothing is written outside the result blocks (gaps of v-forms, a non-root's receive buffer);
// - no block reaches beyond its buffer, reads an absent buffer (an in-place side, a non-root's
//   send side), or combines an element never written or of another index.
// The MPI tests compare results with MPI at up to 16 ranks; this reaches every rank count and
// root up to 24 without MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "scomm/coll/allgather_bruck.hpp"
#include "scomm/coll/allgather_recursive_doubling.hpp"
#include "scomm/coll/allgather_ring.hpp"
#include "scomm/coll/allgatherv_bruck.hpp"
#include "scomm/coll/allgatherv_linear.hpp"
#include "scomm/coll/allgatherv_ring.hpp"
#include "scomm/coll/allreduce_rabenseifner.hpp"
#include "scomm/coll/allreduce_recursive_doubling.hpp"
#include "scomm/coll/allreduce_ring.hpp"
#include "scomm/coll/alltoall_bruck.hpp"
#include "scomm/coll/alltoall_linear.hpp"
#include "scomm/coll/alltoall_pairwise.hpp"
#include "scomm/coll/alltoallv_linear.hpp"
#include "scomm/coll/barrier_dissemination.hpp"
#include "scomm/coll/bcast_binomial.hpp"
#include "scomm/coll/bcast_knomial.hpp"
#include "scomm/coll/bcast_pipelined_tree.hpp"
#include "scomm/coll/bcast_scatter_allgather.hpp"
#include "scomm/coll/gather_binomial.hpp"
#include "scomm/coll/reduce_binomial.hpp"
#include "scomm/coll/reduce_pipelined_tree.hpp"
#include "scomm/coll/reduce_scatter_pairwise.hpp"
#include "scomm/coll/reduce_scatter_recursive_halving.hpp"
#include "scomm/coll/rooted_linear.hpp"
#include "scomm/coll/scan_binary_tree.hpp"
#include "scomm/coll/scan_linear.hpp"
#include "scomm/coll/scan_recursive_doubling.hpp"
#include "scomm/coll/scatter_binomial.hpp"

namespace scomm::coll {
namespace {

// What an element holds: the contributions of `ranks`, combined in this order, to input element
// `index`. Never written: no ranks, and `index` is the element's own position.
struct Term {
  std::vector<int> ranks;
  std::int64_t index = 0;
  bool written() const { return !ranks.empty(); }
};
using Buffer = std::vector<Term>;

Buffer untouched(std::int64_t n) {
  Buffer b(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) b[static_cast<std::size_t>(i)].index = i;
  return b;
}
// Rank r's elements [0, n): its own contribution to each.
Buffer contributions(int rank, std::int64_t n) {
  Buffer b = untouched(n);
  for (Term& t : b) t.ranks = {rank};
  return b;
}
std::vector<int> ranks_upto(int last) {  // 0 .. last
  std::vector<int> r(static_cast<std::size_t>(last + 1));
  std::iota(r.begin(), r.end(), 0);
  return r;
}

// One rank's buffers before the run. Without `input`, the input slot is absent, or the output
// itself when `input_is_output` (MPI_IN_PLACE of a reduction, and bcast).
struct Buffers {
  std::optional<Buffer> input;
  Buffer output;
  bool input_is_output = false;
};

// What one rank's output must hold afterwards: per element, the term, or nothing asked
// (`any`: MPI leaves it undefined).
struct Expected {
  Buffer output;
  std::vector<bool> any;
};
Expected expect(Buffer output) {
  const std::size_t n = output.size();
  return {std::move(output), std::vector<bool>(n, false)};
}

// The symbolic run of one schedule per rank; the first problem found, if any.
class SymbolicRun {
 public:
  SymbolicRun(std::vector<Schedule> schedules, std::vector<Buffers> buffers)
      : schedules_(std::move(schedules)), ranks_(schedules_.size()) {
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
      RankState& s = ranks_[r];
      s.input_is_output = buffers[r].input_is_output;
      s.slots.push_back(buffers[r].input.value_or(Buffer{}));
      s.slots.push_back(std::move(buffers[r].output));
      for (const TempBuffer& temp : schedules_[r].temps()) s.slots.push_back(untouched(temp.count));
    }
  }

  // Runs every rank's rounds until none can go on; false with problem() set on failure.
  bool run() {
    for (bool progress = true; progress && problem_.empty();) {
      progress = false;
      for (std::size_t r = 0; r < ranks_.size() && problem_.empty(); ++r)
        progress = step(static_cast<int>(r)) || progress;
    }
    if (!problem_.empty()) return false;
    for (std::size_t r = 0; r < ranks_.size(); ++r)
      if (ranks_[r].round < schedules_[r].rounds().size())
        return fail(static_cast<int>(r),
                    "waits forever in round " + std::to_string(ranks_[r].round));
    for (const auto& [pair, queue] : messages_)
      if (!queue.empty())
        return fail(pair.first, "sent rank " + std::to_string(pair.second) + " " +
                                    std::to_string(queue.size()) + " message(s) never received");
    return true;
  }
  const Buffer& output(int rank) const { return ranks_[static_cast<std::size_t>(rank)].slots[1]; }
  const std::string& problem() const { return problem_; }

 private:
  struct RankState {
    std::vector<Buffer> slots;
    bool input_is_output = false;
    std::size_t round = 0;
    bool posted = false;
  };

  bool fail(int rank, const std::string& what) {
    if (problem_.empty()) problem_ = "rank " + std::to_string(rank) + " " + what;
    return false;
  }
  Buffer* buffer(int rank, const Block& block) {
    RankState& s = ranks_[static_cast<std::size_t>(rank)];
    Buffer& b = s.slots[block.slot == kInput && s.input_is_output ? kOutput : block.slot];
    if (block.count == 0) return &b;
    if (block.offset < 0 || block.offset + block.count > static_cast<std::int64_t>(b.size())) {
      fail(rank, "round " + std::to_string(s.round) + ": block [" + std::to_string(block.offset) +
                     ", " + std::to_string(block.offset + block.count) + ") of slot " +
                     std::to_string(block.slot) + " beyond its " + std::to_string(b.size()) +
                     " elements");
      return nullptr;
    }
    return &b;
  }
  std::optional<Buffer> read(int rank, const Block& block) {
    const Buffer* b = buffer(rank, block);
    if (b == nullptr) return std::nullopt;
    const auto first = b->begin() + block.offset;
    return Buffer(first, first + block.count);
  }
  bool write(int rank, const Block& block, const Buffer& data) {
    Buffer* b = buffer(rank, block);
    if (b == nullptr) return false;
    std::copy(data.begin(), data.end(), b->begin() + block.offset);
    return true;
  }

  // Posts the rank's round, or completes it when its messages are there; whether it moved.
  bool step(int rank) {
    RankState& s = ranks_[static_cast<std::size_t>(rank)];
    const auto& rounds = schedules_[static_cast<std::size_t>(rank)].rounds();
    if (s.round >= rounds.size()) return false;
    const Round& round = rounds[s.round];
    if (!s.posted) {
      for (const Transfer& t : round.sends) {
        std::optional<Buffer> data = read(rank, t.block);
        if (!data) return false;
        messages_[{rank, t.peer}].push_back(std::move(*data));
      }
      s.posted = true;
      return true;
    }
    std::map<int, std::size_t> wanted;
    for (const Transfer& t : round.receives) ++wanted[t.peer];
    for (const auto& [peer, n] : wanted)
      if (messages_[{peer, rank}].size() < n) return false;
    for (const Transfer& t : round.receives) {
      auto& queue = messages_[{t.peer, rank}];
      const Buffer data = std::move(queue.front());
      queue.pop_front();
      if (static_cast<std::int64_t>(data.size()) != t.block.count)
        return fail(rank, "round " + std::to_string(s.round) + ": receives " +
                              std::to_string(t.block.count) + " elements from rank " +
                              std::to_string(t.peer) + ", which sent " +
                              std::to_string(data.size()));
      if (!write(rank, t.block, data)) return false;
    }
    for (const LocalStep& step : round.local)
      if (!run_local(rank, step)) return false;
    ++s.round;
    s.posted = false;
    return true;
  }

  bool run_local(int rank, const LocalStep& step) {
    std::optional<Buffer> from = read(rank, step.from), to = read(rank, step.to);
    if (!from || !to) return false;
    if (step.from.count != step.to.count)
      return fail(rank, "combines blocks of " + std::to_string(step.from.count) + " and " +
                            std::to_string(step.to.count) + " elements");
    if (step.kind == LocalKind::kCopy) return write(rank, step.to, *from);
    for (std::size_t i = 0; i < from->size(); ++i) {
      Term& lower = step.kind == LocalKind::kReduceLeft ? (*from)[i] : (*to)[i];
      Term& upper = step.kind == LocalKind::kReduceLeft ? (*to)[i] : (*from)[i];
      if (!lower.written() || !upper.written() || lower.index != upper.index)
        return fail(rank, "round " + std::to_string(ranks_[static_cast<std::size_t>(rank)].round) +
                              ": reduces an element never written or two of different indices");
      lower.ranks.insert(lower.ranks.end(), upper.ranks.begin(), upper.ranks.end());
      (*to)[i] = lower;
    }
    return write(rank, step.to, *to);
  }

  std::vector<Schedule> schedules_;
  std::vector<RankState> ranks_;
  std::map<std::pair<int, int>, std::deque<Buffer>> messages_;  // (from, to): in sending order
  std::string problem_;
};

// A case: `count` elements per block, `in_place` as the builder table says, at one rank.
struct Case {
  Shape shape;
  std::int64_t count;
  bool in_place;
};

struct Builder {
  std::string name;
  bool rooted;
  bool ordered;  // serves non-commutative operations: contributions in rank order
  std::function<Schedule(const Case&)> build;
  std::function<Buffers(const Case&)> buffers;
  std::function<Expected(const Case&)> expected;
};

void PrintTo(const Builder& builder, std::ostream* out) {
  *out << builder.name;
}

// ----- the layouts of v-forms: rank r's block has count + r % 3 elements (none when count is 0),
// in rank order with a gap of one element.
std::vector<int> varying(int size, std::int64_t count) {
  std::vector<int> counts;
  for (int r = 0; r < size; ++r) counts.push_back(count == 0 ? 0 : static_cast<int>(count) + r % 3);
  return counts;
}
std::size_t at(int r) {
  return static_cast<std::size_t>(r);
}

// ----- broadcast: the root's output to every output.
Buffers bcast_buffers(const Case& c) {
  const bool root = c.shape.rank == c.shape.root;
  return {std::nullopt, root ? contributions(c.shape.root, c.count) : untouched(c.count), true};
}
Expected bcast_expected(const Case& c) {
  return expect(contributions(c.shape.root, c.count));
}

// ----- reductions: `result(rank)` is the ranks whose contributions rank's output combines.
Buffers reduction_buffers(const Case& c, std::int64_t input_count, bool has_output) {
  if (c.in_place) return {std::nullopt, contributions(c.shape.rank, input_count), true};
  return {contributions(c.shape.rank, input_count), untouched(has_output ? input_count : 0)};
}
Expected reduction_expected(const Case& c, const std::vector<int>& ranks) {
  Buffer out = untouched(c.count);
  for (Term& t : out) t.ranks = ranks;
  return expect(out);
}
Builder reduce(std::string name, bool ordered, std::function<Schedule(const Case&)> build) {
  return {std::move(name),
          true,
          ordered,
          std::move(build),
          [](const Case& c) { return reduction_buffers(c, c.count, true); },
          [](const Case& c) {
            // A non-root's receive buffer is not MPI's to touch.
            if (c.shape.rank != c.shape.root) return expect(untouched(c.count));
            return reduction_expected(c, ranks_upto(c.shape.size - 1));
          }};
}
Builder allreduce(std::string name, bool ordered, std::function<Schedule(const Case&)> build) {
  return {std::move(name),
          false,
          ordered,
          std::move(build),
          [](const Case& c) { return reduction_buffers(c, c.count, true); },
          [](const Case& c) { return reduction_expected(c, ranks_upto(c.shape.size - 1)); }};
}
Builder scan(std::string name, std::function<Schedule(const Case&)> build) {
  return {std::move(name),
          false,
          true,
          std::move(build),
          [](const Case& c) { return reduction_buffers(c, c.count, true); },
          [](const Case& c) { return reduction_expected(c, ranks_upto(c.shape.rank)); }};
}
Builder exscan(std::string name, std::function<Schedule(const Case&)> build) {
  return {std::move(name),
          false,
          true,
          std::move(build),
          [](const Case& c) { return reduction_buffers(c, c.count, true); },
          [](const Case& c) {
            Expected e = reduction_expected(c, ranks_upto(c.shape.rank - 1));
            if (c.shape.rank == 0) e.any.assign(e.any.size(), true);  // undefined in MPI
            return e;
          }};
}
// Reduce-scatter of varying blocks: the input is every block in rank order; in place, the output
// holds it and the result goes to its start.
Builder reduce_scatter(
    std::string name, bool ordered,
    std::function<Schedule(const Shape&, std::span<const std::int64_t>, bool in_place)> build) {
  const auto counts = [](const Case& c) {
    const std::vector<int> v = varying(c.shape.size, c.count);
    return std::vector<std::int64_t>(v.begin(), v.end());
  };
  const auto total = [](const std::vector<std::int64_t>& v) {
    return std::accumulate(v.begin(), v.end(), std::int64_t{0});
  };
  return {std::move(name),
          false,
          ordered,
          [=](const Case& c) { return build(c.shape, counts(c), c.in_place); },
          [=](const Case& c) {
            const auto v = counts(c);
            Buffers b = reduction_buffers(c, total(v), true);
            if (!c.in_place) b.output = untouched(v[at(c.shape.rank)]);
            return b;
          },
          [=](const Case& c) {
            const auto v = counts(c);
            const std::int64_t first = total({v.begin(), v.begin() + c.shape.rank});
            const std::int64_t mine = v[at(c.shape.rank)];
            Expected e = expect(untouched(c.in_place ? total(v) : mine));
            for (std::int64_t j = 0; j < static_cast<std::int64_t>(e.output.size()); ++j) {
              if (j >= mine) {
                e.any[static_cast<std::size_t>(j)] = true;
                continue;
              }
              e.output[static_cast<std::size_t>(j)] = {ranks_upto(c.shape.size - 1), first + j};
            }
            return e;
          }};
}

// ----- data movement. Rank s's block lands at `where(s)` of a receiver's output, and came from
// `from(s)` of s's input.
struct Placement {
  std::vector<int> counts, displs;
  std::int64_t extent = 0;  // elements of the whole buffer
};
Placement regular(int size, std::int64_t count) {
  Placement p;
  for (int r = 0; r < size; ++r) {
    p.counts.push_back(static_cast<int>(count));
    p.displs.push_back(static_cast<int>(r * count));
  }
  p.extent = size * count;
  return p;
}
Placement gapped(std::vector<int> counts) {
  Placement p{std::move(counts), {}, 0};
  for (int c : p.counts) {
    p.displs.push_back(static_cast<int>(p.extent));
    p.extent += c + 1;
  }
  return p;
}
Placement varying_gapped(int size, std::int64_t count) {
  return gapped(varying(size, count));
}
// `p`'s blocks filled with the contributions of each block's rank, `source_offset(s)` the index
// of the first element in that rank's input; the gaps untouched.
Buffer placed(
    const Placement& p, const std::function<std::int64_t(int s)>& source_offset,
    const std::function<bool(int s)>& wanted = [](int) { return true; }) {
  Buffer b = untouched(p.extent);
  for (int s = 0; s < static_cast<int>(p.counts.size()); ++s) {
    if (!wanted(s)) continue;
    for (int j = 0; j < p.counts[at(s)]; ++j)
      b[at(p.displs[at(s)] + j)] = {{s}, source_offset(s) + j};
  }
  return b;
}

// Gather: rank s's `counts[s]` input elements into the root's output at displs[s].
Builder gather(std::string name, bool vector,
               std::function<Schedule(const Case&, const Placement&)> build) {
  auto layout = [vector](const Case& c) {
    return vector ? varying_gapped(c.shape.size, c.count) : regular(c.shape.size, c.count);
  };
  return {std::move(name),
          true,
          true,
          [=](const Case& c) { return build(c, layout(c)); },
          [=](const Case& c) {
            const Placement p = layout(c);
            const int me = c.shape.rank;
            if (me != c.shape.root) return Buffers{contributions(me, p.counts[at(me)]), {}};
            // The root's own block is in its output when in place.
            Buffer out = placed(
                p, [](int) { return 0; }, [&](int s) { return c.in_place && s == me; });
            if (c.in_place) return Buffers{std::nullopt, out};
            return Buffers{contributions(me, p.counts[at(me)]), out};
          },
          [=](const Case& c) {
            if (c.shape.rank != c.shape.root) return expect({});
            return expect(placed(layout(c), [](int) { return 0; }));
          }};
}
// Scatter: the root's input block s (at displs[s]) into rank s's output.
Builder scatter(std::string name, bool vector,
                std::function<Schedule(const Case&, const Placement&)> build) {
  auto layout = [vector](const Case& c) {
    return vector ? varying_gapped(c.shape.size, c.count) : regular(c.shape.size, c.count);
  };
  return {std::move(name),
          true,
          true,
          [=](const Case& c) { return build(c, layout(c)); },
          [=](const Case& c) {
            const Placement p = layout(c);
            const int me = c.shape.rank;
            if (me != c.shape.root) return Buffers{std::nullopt, untouched(p.counts[at(me)])};
            const Buffer in = contributions(me, p.extent);
            // In place, the root's own block stays in its input: it has no output.
            return Buffers{in, c.in_place ? Buffer{} : untouched(p.counts[at(me)])};
          },
          [=](const Case& c) {
            const Placement p = layout(c);
            const int me = c.shape.rank;
            if (me == c.shape.root && c.in_place) return expect({});
            Buffer out = untouched(p.counts[at(me)]);
            for (Term& t : out) t = {{c.shape.root}, p.displs[at(me)] + t.index};
            return expect(out);
          }};
}
// Allgather: every rank's input block s into every output at displs[s]; in place, each rank's own
// block is in its output already.
Builder allgather(std::string name, bool vector,
                  std::function<Schedule(const Case&, const Placement&)> build) {
  auto layout = [vector](const Case& c) {
    return vector ? varying_gapped(c.shape.size, c.count) : regular(c.shape.size, c.count);
  };
  return {std::move(name),
          false,
          true,
          [=](const Case& c) { return build(c, layout(c)); },
          [=](const Case& c) {
            const Placement p = layout(c);
            const int me = c.shape.rank;
            if (c.in_place)
              return Buffers{std::nullopt,
                             placed(
                                 p, [](int) { return 0; }, [me](int s) { return s == me; })};
            return Buffers{contributions(me, p.counts[at(me)]), untouched(p.extent)};
          },
          [=](const Case& c) { return expect(placed(layout(c), [](int) { return 0; })); }};
}
// Alltoall(v): rank i sends rank j c(i, j) = count (+ (i + j) % 3 for the v-form) elements, laid
// out by destination in the input and by source in the output (gapped for the v-form);
// symmetric, as MPI_IN_PLACE requires.
Placement alltoall_layout(const Case& c, int rank, bool vector) {
  if (!vector) return regular(c.shape.size, c.count);
  std::vector<int> counts;
  for (int j = 0; j < c.shape.size; ++j)
    counts.push_back(c.count == 0 ? 0 : static_cast<int>(c.count) + (rank + j) % 3);
  return gapped(std::move(counts));
}
Builder alltoall(std::string name, bool vector,
                 std::function<Schedule(const Case&, const Placement&)> build) {
  return {std::move(name),
          false,
          true,
          [=](const Case& c) { return build(c, alltoall_layout(c, c.shape.rank, vector)); },
          [=](const Case& c) {
            const Placement p = alltoall_layout(c, c.shape.rank, vector);
            // The blocks for every destination, each element its own input index.
            Buffer mine = untouched(p.extent);
            for (std::size_t j = 0; j < p.counts.size(); ++j)
              for (int i = 0; i < p.counts[j]; ++i)
                mine[at(p.displs[j] + i)].ranks = {c.shape.rank};
            if (c.in_place) return Buffers{std::nullopt, mine};
            return Buffers{mine, untouched(p.extent)};
          },
          [=](const Case& c) {
            const int me = c.shape.rank;
            // Rank s's block for me starts at its layout's displacement of me.
            return expect(placed(alltoall_layout(c, me, vector), [&](int s) {
              return std::int64_t{alltoall_layout(c, s, vector).displs[at(me)]};
            }));
          }};
}

const std::vector<Builder>& builders() {
  using C = const Case&;
  using P = const Placement&;
  const auto n_of = [](C c, P p) { return std::int64_t{p.counts[at(c.shape.rank)]}; };
  static const std::vector<Builder> kBuilders = {
      {"barrier_dissemination", false, true, [](C c) { return barrier_dissemination(c.shape); },
       [](C) { return Buffers{}; }, [](C) { return expect({}); }},
      {"bcast_binomial", true, true, [](C c) { return bcast_binomial(c.shape, c.count); },
       bcast_buffers, bcast_expected},
      {"bcast_knomial/3", true, true, [](C c) { return bcast_knomial(c.shape, c.count, 3); },
       bcast_buffers, bcast_expected},
      {"bcast_knomial/4", true, true, [](C c) { return bcast_knomial(c.shape, c.count, 4); },
       bcast_buffers, bcast_expected},
      {"bcast_pipelined_tree", true, true,
       [](C c) { return bcast_pipelined_tree(c.shape, c.count, 2); }, bcast_buffers,
       bcast_expected},
      {"bcast_scatter_allgather", true, true,
       [](C c) { return bcast_scatter_allgather(c.shape, c.count); }, bcast_buffers,
       bcast_expected},
      reduce("reduce_binomial/commutative", false,
             [](C c) { return reduce_binomial(c.shape, c.count, c.in_place, true); }),
      reduce("reduce_binomial/noncommutative", true,
             [](C c) { return reduce_binomial(c.shape, c.count, c.in_place, false); }),
      reduce("reduce_pipelined_tree", true,
             [](C c) { return reduce_pipelined_tree(c.shape, c.count, c.in_place, 2); }),
      allreduce("allreduce_recursive_doubling", true,
                [](C c) { return allreduce_recursive_doubling(c.shape, c.count, c.in_place); }),
      allreduce("allreduce_rabenseifner", true,
                [](C c) { return allreduce_rabenseifner(c.shape, c.count, c.in_place); }),
      allreduce("allreduce_ring", false,
                [](C c) { return allreduce_ring(c.shape, c.count, c.in_place); }),
      scan("scan_recursive_doubling",
           [](C c) { return scan_recursive_doubling(c.shape, c.count, c.in_place); }),
      scan("scan_linear", [](C c) { return scan_linear(c.shape, c.count, c.in_place); }),
      scan("scan_binary_tree", [](C c) { return scan_binary_tree(c.shape, c.count, c.in_place); }),
      exscan("exscan_recursive_doubling",
             [](C c) { return exscan_recursive_doubling(c.shape, c.count, c.in_place); }),
      exscan("exscan_linear", [](C c) { return exscan_linear(c.shape, c.count, c.in_place); }),
      exscan("exscan_binary_tree",
             [](C c) { return exscan_binary_tree(c.shape, c.count, c.in_place); }),
      reduce_scatter("reduce_scatter_pairwise", false, reduce_scatter_pairwise),
      reduce_scatter("reduce_scatter_recursive_halving", true,
                     [](const Shape& s, std::span<const std::int64_t> counts, bool) {
                       return reduce_scatter_recursive_halving(s, counts);
                     }),
      gather("gather_binomial", false,
             [](C c, P) { return gather_binomial(c.shape, c.count, c.count, c.in_place); }),
      gather("gather_linear", false,
             [](C c, P) { return gather_linear(c.shape, c.count, c.count, c.in_place); }),
      gather("gatherv_linear", true,
             [=](C c, P p) {
               return gatherv_linear(c.shape, n_of(c, p), p.counts, p.displs, c.in_place);
             }),
      scatter("scatter_binomial", false,
              [](C c, P) { return scatter_binomial(c.shape, c.count, c.count, c.in_place); }),
      scatter("scatter_linear", false,
              [](C c, P) { return scatter_linear(c.shape, c.count, c.count, c.in_place); }),
      scatter("scatterv_linear", true,
              [=](C c, P p) {
                return scatterv_linear(c.shape, p.counts, p.displs, n_of(c, p), c.in_place);
              }),
      allgather("allgather_bruck", false,
                [](C c, P) { return allgather_bruck(c.shape, c.count, c.count, c.in_place); }),
      allgather("allgather_recursive_doubling", false,
                [](C c, P) {
                  return allgather_recursive_doubling(c.shape, c.count, c.count, c.in_place);
                }),
      allgather("allgather_ring", false,
                [](C c, P) { return allgather_ring(c.shape, c.count, c.count, c.in_place); }),
      allgather("allgatherv_ring", true,
                [=](C c, P p) {
                  return allgatherv_ring(c.shape, n_of(c, p), p.counts, p.displs, c.in_place);
                }),
      allgather("allgatherv_linear", true,
                [=](C c, P p) {
                  return allgatherv_linear(c.shape, n_of(c, p), p.counts, p.displs, c.in_place);
                }),
      allgather("allgatherv_bruck", true,
                [=](C c, P p) {
                  return allgatherv_bruck(c.shape, n_of(c, p), p.counts, p.displs, c.in_place);
                }),
      alltoall("alltoall_bruck", false,
               [](C c, P) { return alltoall_bruck(c.shape, c.count, c.count, c.in_place); }),
      alltoall("alltoall_pairwise", false,
               [](C c, P) { return alltoall_pairwise(c.shape, c.count, c.count, c.in_place); }),
      alltoall("alltoall_linear", false,
               [](C c, P) { return alltoall_linear(c.shape, c.count, c.count, c.in_place); }),
      alltoall("alltoallv_linear", true,
               [](C c, P p) {
                 return alltoallv_linear(c.shape, {kInput, p.counts, p.displs},
                                         {kOutput, p.counts, p.displs}, c.in_place);
               }),
  };
  return kBuilders;
}

// Where rank `rank`'s output differs from what MPI asks; empty when it does not.
std::string compare(const Builder& b, int rank, const Buffer& got, const Expected& want) {
  std::ostringstream out;
  if (got.size() != want.output.size()) {
    out << "rank " << rank << "'s output has " << got.size() << " elements, not "
        << want.output.size();
    return out.str();
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (want.any[i]) continue;
    std::vector<int> g = got[i].ranks, w = want.output[i].ranks;
    if (!b.ordered) {
      std::sort(g.begin(), g.end());
      std::sort(w.begin(), w.end());
    }
    if (g == w && got[i].index == want.output[i].index) continue;
    out << "rank " << rank << " output[" << i << "]: ranks {";
    for (int r : got[i].ranks) out << ' ' << r;
    out << " } of index " << got[i].index << ", wanted {";
    for (int r : want.output[i].ranks) out << ' ' << r;
    out << " } of index " << want.output[i].index;
    return out.str();
  }
  return {};
}

class ScheduleDataflow : public testing::TestWithParam<Builder> {};

TEST_P(ScheduleDataflow, EveryResultHoldsExactlyItsContributions) {
  const Builder& b = GetParam();
  for (int p = 1; p <= 24; ++p) {
    for (int root = 0; root < (b.rooted ? p : 1); ++root) {
      if (p > 8 && root != 1 && root != p / 2 && root != p - 1) continue;  // root 0 is p / 2 at 1
      for (std::int64_t count : {0, 1, 3, 7})
        for (bool in_place : {false, true}) {
          std::vector<Schedule> schedules;
          std::vector<Buffers> buffers;
          std::vector<Case> cases;
          for (int r = 0; r < p; ++r) {
            // MPI_IN_PLACE is every rank's for unrooted operations, the root's alone otherwise.
            cases.push_back({{r, p, root}, count, in_place && (!b.rooted || r == root)});
            schedules.push_back(b.build(cases.back()));
            buffers.push_back(b.buffers(cases.back()));
          }
          SymbolicRun run(std::move(schedules), std::move(buffers));
          const std::string where =
              b.name + " p=" + std::to_string(p) + " root=" + std::to_string(root) +
              " count=" + std::to_string(count) + " in_place=" + std::to_string(in_place) + ": ";
          ASSERT_TRUE(run.run()) << where << run.problem();
          for (int r = 0; r < p; ++r) {
            const std::string wrong = compare(b, r, run.output(r), b.expected(cases[at(r)]));
            ASSERT_TRUE(wrong.empty()) << where << wrong;
          }
        }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Builders, ScheduleDataflow, testing::ValuesIn(builders()),
                         [](const testing::TestParamInfo<Builder>& param) {
                           std::string name = param.param.name;
                           for (char& c : name)
                             if (c == '/') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace scomm::coll
