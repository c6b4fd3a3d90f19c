// Every schedule builder of the collective layer run on symbolic values (value_simulation.hpp)
// at 1..24 ranks: each element holds which ranks' contributions reached it, of which input
// element, in the order they were combined. The run binds buffers as the executor does (the
// input of an in-place reduction and of bcast is the output; a side MPI_IN_PLACE leaves out, or
// that means nothing at a rank, is absent) and checks, against MPI's definition of each
// operation, that:
// - every result element holds exactly the right contributions, in rank order for a builder that
//   serves non-commutative operations (any order for the commutative-only ones);
// - nothing outside the result blocks changes (gaps of v-forms, a non-root's receive buffer);
// - no block reaches beyond its buffer or reads an absent one, every message is received with
//   its size, and no rank waits forever.
// The MPI tests compare results with MPI's at up to 16 ranks; this reaches every rank count up to
// 24 without MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
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
#include "scomm/coll/alltoallw_linear.hpp"
#include "scomm/coll/barrier_dissemination.hpp"
#include "scomm/coll/barrier_linear.hpp"
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
#include "value_simulation.hpp"

namespace scomm::coll {
namespace {

using symbolic::initial;
using symbolic::initial_block;
using symbolic::kElementBase;
using symbolic::ranks_reduced;
using symbolic::undefined;
using symbolic::Value;
using symbolic::Values;
using symbolic::ValueSimulation;

std::size_t at(std::int64_t i) {
  return static_cast<std::size_t>(i);
}

// One rank's buffers before the run, as the executor binds them: without `input`, the input
// side is absent, or the output itself when `input_is_output` (MPI_IN_PLACE of a reduction, and
// bcast).
struct Buffers {
  std::optional<Values> input;
  Values output;
  bool input_is_output = false;
};

// What one rank's output must hold afterwards: per element, the value, or nothing asked (`any`:
// MPI leaves it undefined). Elements of no block must stay undefined.
struct Expected {
  Values output;
  std::vector<bool> any;
};
Expected expect(Values output) {
  const std::size_t n = output.size();
  return {std::move(output), std::vector<bool>(n, false)};
}

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
  return {std::nullopt, root ? initial_block(c.shape.root, c.count) : undefined(c.count), true};
}
Expected bcast_expected(const Case& c) {
  return expect(initial_block(c.shape.root, c.count));
}

// ----- reductions: `result(rank)` is the ranks whose contributions rank's output combines.
Buffers reduction_buffers(const Case& c, std::int64_t input_count, bool has_output) {
  if (c.in_place) return {std::nullopt, initial_block(c.shape.rank, input_count), true};
  return {initial_block(c.shape.rank, input_count), undefined(has_output ? input_count : 0)};
}
// Every element of ranks 0..last, reduced in rank order.
Expected reduction_expected(const Case& c, int last) {
  Values out;
  for (std::int64_t e = 0; e < c.count; ++e) out.push_back(ranks_reduced(0, last, e));
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
            if (c.shape.rank != c.shape.root) return expect(undefined(c.count));
            return reduction_expected(c, c.shape.size - 1);
          }};
}
Builder allreduce(std::string name, bool ordered, std::function<Schedule(const Case&)> build) {
  return {std::move(name),
          false,
          ordered,
          std::move(build),
          [](const Case& c) { return reduction_buffers(c, c.count, true); },
          [](const Case& c) { return reduction_expected(c, c.shape.size - 1); }};
}
Builder scan(std::string name, std::function<Schedule(const Case&)> build, bool ordered = true) {
  return {std::move(name),
          false,
          ordered,
          std::move(build),
          [](const Case& c) { return reduction_buffers(c, c.count, true); },
          [](const Case& c) { return reduction_expected(c, c.shape.rank); }};
}
Builder exscan(std::string name, std::function<Schedule(const Case&)> build) {
  return {std::move(name),
          false,
          true,
          std::move(build),
          [](const Case& c) { return reduction_buffers(c, c.count, true); },
          [](const Case& c) {
            Expected e = reduction_expected(c, c.shape.rank - 1);
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
            if (!c.in_place) b.output = undefined(v[at(c.shape.rank)]);
            return b;
          },
          [=](const Case& c) {
            const auto v = counts(c);
            const std::int64_t first = total({v.begin(), v.begin() + c.shape.rank});
            const std::int64_t mine = v[at(c.shape.rank)];
            Expected e = expect(undefined(c.in_place ? total(v) : mine));
            for (std::int64_t j = 0; j < static_cast<std::int64_t>(e.output.size()); ++j) {
              if (j >= mine) {
                e.any[static_cast<std::size_t>(j)] = true;
                continue;
              }
              e.output[at(j)] = ranks_reduced(0, c.shape.size - 1, first + j);
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
Values placed(
    const Placement& p, const std::function<std::int64_t(int s)>& source_offset,
    const std::function<bool(int s)>& wanted = [](int) { return true; }) {
  Values b = undefined(p.extent);
  for (int s = 0; s < static_cast<int>(p.counts.size()); ++s) {
    if (!wanted(s)) continue;
    for (int j = 0; j < p.counts[at(s)]; ++j)
      b[at(p.displs[at(s)] + j)] = initial(s, source_offset(s) + j);
  }
  return b;
}

// A data-movement builder whose blocks, one per rank, lie as `vector` says (regular, or varying
// and gapped): `build`, `buffers` and `expected` see the rank's case and that layout.
template <typename R>
using WithLayout = std::function<R(const Case&, const Placement&)>;
Builder movement(std::string name, bool rooted, bool vector, WithLayout<Schedule> build,
                 WithLayout<Buffers> buffers, WithLayout<Expected> expected) {
  const auto layout = [vector](const Case& c) {
    return vector ? varying_gapped(c.shape.size, c.count) : regular(c.shape.size, c.count);
  };
  return {std::move(name),
          rooted,
          true,
          [=](const Case& c) { return build(c, layout(c)); },
          [=](const Case& c) { return buffers(c, layout(c)); },
          [=](const Case& c) { return expected(c, layout(c)); }};
}
std::int64_t from_start(int) {
  return 0;
}

// Gather: rank s's `counts[s]` input elements into the root's output at displs[s]; in place, the
// root's own block is there already and it has no send side.
Buffers gather_buffers(const Case& c, const Placement& p) {
  const int me = c.shape.rank;
  if (me != c.shape.root) return {initial_block(me, p.counts[at(me)]), {}};
  Values out = placed(p, from_start, [&](int s) { return c.in_place && s == me; });
  if (c.in_place) return {std::nullopt, out};
  return {initial_block(me, p.counts[at(me)]), out};
}
Expected gather_expected(const Case& c, const Placement& p) {
  return expect(c.shape.rank == c.shape.root ? placed(p, from_start) : Values{});
}
Builder gather(std::string name, bool vector, WithLayout<Schedule> build) {
  return movement(std::move(name), true, vector, std::move(build), gather_buffers, gather_expected);
}

// Scatter: the root's input block s (at displs[s]) into rank s's output; in place, the root's own
// block stays in its input and it has no receive side.
Buffers scatter_buffers(const Case& c, const Placement& p) {
  const int me = c.shape.rank;
  if (me != c.shape.root) return {std::nullopt, undefined(p.counts[at(me)])};
  return {initial_block(me, p.extent), c.in_place ? Values{} : undefined(p.counts[at(me)])};
}
Expected scatter_expected(const Case& c, const Placement& p) {
  const int me = c.shape.rank;
  Values out;
  if (me != c.shape.root || !c.in_place)
    for (int j = 0; j < p.counts[at(me)]; ++j)
      out.push_back(initial(c.shape.root, p.displs[at(me)] + j));
  return expect(out);
}
Builder scatter(std::string name, bool vector, WithLayout<Schedule> build) {
  return movement(std::move(name), true, vector, std::move(build), scatter_buffers,
                  scatter_expected);
}

// Allgather: every rank's input block s into every output at displs[s]; in place, each rank's own
// block is in its output already and it has no send side.
Buffers allgather_buffers(const Case& c, const Placement& p) {
  const int me = c.shape.rank;
  if (c.in_place) return {std::nullopt, placed(p, from_start, [me](int s) { return s == me; })};
  return {initial_block(me, p.counts[at(me)]), undefined(p.extent)};
}
Expected allgather_expected(const Case&, const Placement& p) {
  return expect(placed(p, from_start));
}
Builder allgather(std::string name, bool vector, WithLayout<Schedule> build) {
  return movement(std::move(name), false, vector, std::move(build), allgather_buffers,
                  allgather_expected);
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
            Values mine = undefined(p.extent);
            for (std::size_t j = 0; j < p.counts.size(); ++j)
              for (int i = 0; i < p.counts[j]; ++i)
                mine[at(p.displs[j] + i)] = initial(c.shape.rank, p.displs[j] + i);
            if (c.in_place) return Buffers{std::nullopt, mine};
            return Buffers{mine, undefined(p.extent)};
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
      {"barrier_linear", false, true, [](C c) { return barrier_linear(c.shape); },
       [](C) { return Buffers{}; }, [](C) { return expect({}); }},
      {"bcast_binomial", true, true, [](C c) { return bcast_binomial(c.shape, c.count); },
       bcast_buffers, bcast_expected},
      {"bcast_knomial_3", true, true, [](C c) { return bcast_knomial(c.shape, c.count, 3); },
       bcast_buffers, bcast_expected},
      {"bcast_knomial_4", true, true, [](C c) { return bcast_knomial(c.shape, c.count, 4); },
       bcast_buffers, bcast_expected},
      {"bcast_pipelined_tree", true, true,
       [](C c) { return bcast_pipelined_tree(c.shape, c.count, 2); }, bcast_buffers,
       bcast_expected},
      {"bcast_scatter_allgather", true, true,
       [](C c) { return bcast_scatter_allgather(c.shape, c.count); }, bcast_buffers,
       bcast_expected},
      reduce("reduce_binomial_commutative", false,
             [](C c) { return reduce_binomial(c.shape, c.count, c.in_place, true); }),
      reduce("reduce_binomial_noncommutative", true,
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
      scan("scan_linear", [](C c) { return scan_linear(c.shape, c.count, c.in_place, 2, false); }),
      scan(
          "scan_linear_commutative",
          [](C c) { return scan_linear(c.shape, c.count, c.in_place, 2, true); }, false),
      scan("scan_binary_tree", [](C c) { return scan_binary_tree(c.shape, c.count, c.in_place); }),
      exscan("exscan_recursive_doubling",
             [](C c) { return exscan_recursive_doubling(c.shape, c.count, c.in_place); }),
      exscan("exscan_linear",
             [](C c) { return exscan_linear(c.shape, c.count, c.in_place, 2, false); }),
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
std::string describe(const Value& v) {
  if (v == Value{-1}) return "undefined";
  std::ostringstream out;
  out << "element " << (v.empty() ? -1 : v.front() % kElementBase) << " of ranks {";
  for (std::int64_t x : v) out << ' ' << x / kElementBase;
  return out.str() + " }";
}

// Where rank `rank`'s output differs from what MPI asks; empty when it does not.
std::string compare(const Builder& b, int rank, const Values& got, const Expected& want) {
  if (got.size() != want.output.size())
    return "rank " + std::to_string(rank) + "'s output has " + std::to_string(got.size()) +
           " elements, not " + std::to_string(want.output.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (want.any[i]) continue;
    Value g = got[i], w = want.output[i];
    if (!b.ordered) {
      std::sort(g.begin(), g.end());
      std::sort(w.begin(), w.end());
    }
    if (g != w)
      return "rank " + std::to_string(rank) + " output[" + std::to_string(i) + "] holds " +
             describe(got[i]) + ", not " + describe(want.output[i]);
  }
  return {};
}

// Runs `schedules` (one per rank, each reading and writing one output element) to the end, or
// returns the simulation's complaint.
std::string run_by_hand(const std::vector<Schedule>& schedules) {
  const int p = static_cast<int>(schedules.size());
  ValueSimulation run([&](const Shape& s) { return schedules[static_cast<std::size_t>(s.rank)]; },
                      p, 0);
  for (int r = 0; r < p; ++r) run.buffers(r).output = initial_block(r, 1);
  try {
    run.run();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// The simulation asks of a schedule what MPI promises: a send completes only once its receiver
// takes it, and a one_by_one round's transfers go one at a time. Both ranks sending first and
// receiving in a later round wait forever (eager sends would hide it); a rank whose transfers
// go one by one in the wrong order does too, where posting them together completes.
TEST(ValueSimulationTest, SendsWaitForTheirReceiversAndOneByOneRoundsKeepTheirOrder) {
  const Block one{kOutput, 0, 1};
  Schedule first_send, then_receive;
  first_send.next_round().send(1, one).next_round().receive(1, one);
  then_receive.next_round().send(0, one).next_round().receive(0, one);
  EXPECT_EQ(run_by_hand({first_send, then_receive}), "rank 0 waits forever");
  Schedule exchange_0, exchange_1;
  exchange_0.next_round().send(1, one).receive(1, one);
  exchange_1.next_round().send(0, one).receive(0, one);
  EXPECT_EQ(run_by_hand({exchange_0, exchange_1}), "");
  // Rank 0 sends to 1, then to 2; rank 1 first waits for 2, which waits for rank 0's send.
  for (const bool one_by_one : {false, true}) {
    Schedule root, middle, last;
    root.next_round().send(1, one).send(2, one);
    if (one_by_one) root.one_by_one();
    middle.next_round().receive(2, one).next_round().receive(0, one);
    last.next_round().receive(0, one).next_round().send(1, one);
    EXPECT_EQ(run_by_hand({root, middle, last}), one_by_one ? "rank 0 waits forever" : "")
        << "one_by_one " << one_by_one;
  }
}

class ScheduleDataflow : public testing::TestWithParam<Builder> {};

TEST_P(ScheduleDataflow, EveryResultHoldsExactlyItsContributions) {
  const Builder& b = GetParam();
  for (int p = 1; p <= 24; ++p) {
    for (int root = 0; root < (b.rooted ? p : 1); ++root) {
      if (p > 8 && root != 1 && root != p / 2 && root != p - 1) continue;  // root 0 is p / 2 at 1
      for (std::int64_t count : {0, 1, 3, 7})
        for (bool in_place : {false, true}) {
          // MPI_IN_PLACE is every rank's for unrooted operations, the root's alone otherwise.
          const auto case_at = [&](const Shape& s) {
            return Case{s, count, in_place && (!b.rooted || s.rank == s.root)};
          };
          ValueSimulation run([&](const Shape& s) { return b.build(case_at(s)); }, p, root);
          for (int r = 0; r < p; ++r) {
            Buffers buffers = b.buffers(case_at({r, p, root}));
            run.buffers(r).input = buffers.input.value_or(Values{});
            run.buffers(r).output = std::move(buffers.output);
            run.buffers(r).input_is_output = buffers.input_is_output;
          }
          const std::string where =
              b.name + " p=" + std::to_string(p) + " root=" + std::to_string(root) +
              " count=" + std::to_string(count) + " in_place=" + std::to_string(in_place) + ": ";
          try {
            run.run();
          } catch (const std::runtime_error& e) {
            FAIL() << where << e.what();
          }
          for (int r = 0; r < p; ++r) {
            const std::string wrong =
                compare(b, r, run.buffers(r).output, b.expected(case_at({r, p, root})));
            ASSERT_TRUE(wrong.empty()) << where << wrong;
          }
        }
    }
  }
}

// Alltoallw's blocks are views of their own (schedule.hpp): rank r's view j holds its
// c(r, j) elements for rank j, and its view p + i receives rank i's, nothing else.
TEST(ScheduleDataflowViews, AlltoallwDeliversEveryBlockIntoItsView) {
  const auto c = [](int from, int to) { return (from + 2 * to) % 4; };
  const auto element = [](int to, int e) { return 100 * to + e; };
  for (int p = 1; p <= 12; ++p) {
    const auto counts_of = [&](int rank, bool sending) {
      std::vector<int> counts;
      for (int peer = 0; peer < p; ++peer)
        counts.push_back(sending ? c(rank, peer) : c(peer, rank));
      return counts;
    };
    ValueSimulation run(
        [&](const Shape& s) {
          return alltoallw_linear(s, counts_of(s.rank, true), counts_of(s.rank, false));
        },
        p, 0);
    for (int r = 0; r < p; ++r) {
      std::vector<Values>& views = run.buffers(r).views;
      for (int j = 0; j < p; ++j) {
        Values block;
        for (int e = 0; e < c(r, j); ++e) block.push_back(initial(r, element(j, e)));
        views.push_back(block);
      }
      for (int i = 0; i < p; ++i) views.push_back(symbolic::undefined(c(i, r)));
    }
    ASSERT_NO_THROW(run.run()) << "p=" << p;
    for (int r = 0; r < p; ++r)
      for (int i = 0; i < p; ++i) {
        Values expected;
        for (int e = 0; e < c(i, r); ++e) expected.push_back(initial(i, element(r, e)));
        EXPECT_EQ(run.buffers(r).views[static_cast<std::size_t>(p + i)], expected)
            << "p=" << p << " rank " << r << " from " << i;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Builders, ScheduleDataflow, testing::ValuesIn(builders()),
                         [](const auto& builder) { return builder.param.name; });

}  // namespace
}  // namespace scomm::coll
