// Every schedule builder of the collective layer, run on the simulator at 1..17 ranks, every
// root, empty and non-empty blocks, in place and not: no receive waits forever, no message is
// left unreceived, every receive expects exactly the bytes its send carries. The send and
// receive types differ in size (4 and 8 bytes, counts to match) where the operation has two
// types, so a builder that sizes a block in the wrong type shows up as a size mismatch.
//
// A new builder is one line in kBuilders.
#include <gtest/gtest.h>

#include <functional>
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
#include "scomm/coll/neighbor_exchange.hpp"
#include "scomm/coll/reduce_binomial.hpp"
#include "scomm/coll/reduce_pipelined_tree.hpp"
#include "scomm/coll/reduce_scatter_pairwise.hpp"
#include "scomm/coll/reduce_scatter_recursive_halving.hpp"
#include "scomm/coll/rooted_linear.hpp"
#include "scomm/coll/scan_binary_tree.hpp"
#include "scomm/coll/scan_linear.hpp"
#include "scomm/coll/scan_recursive_doubling.hpp"
#include "scomm/coll/scatter_binomial.hpp"
#include "scomm/coll/simulator.hpp"

namespace scomm::coll {
namespace {

// `count`: elements of the receive type per rank's block (the send type is half as wide, so
// blocks of it hold 2 * count elements). `in_place`: asked of every rank for unrooted
// operations, of the root alone for rooted ones.
using Build = std::function<Schedule(const Shape&, std::int64_t count, bool in_place)>;

constexpr ElementSizes kOneType{8, 8};
constexpr ElementSizes kTwoTypes{4, 8};

struct ValidatedBuilder {
  std::string name;
  bool rooted;
  ElementSizes sizes;
  Build build;
};

// GoogleTest would otherwise print the object's raw bytes, padding included (valgrind objects).
void PrintTo(const ValidatedBuilder& builder, std::ostream* out) {
  *out << builder.name;
}

// Blocks of varying size for the v-variants and reduce-scatter: rank r's block has
// count + r % 3 elements (0 when count is 0), laid out in rank order with a gap of one element.
std::vector<int> varying_counts(int size, std::int64_t count) {
  std::vector<int> counts;
  for (int r = 0; r < size; ++r) counts.push_back(count == 0 ? 0 : static_cast<int>(count) + r % 3);
  return counts;
}
std::vector<int> gapped_displs(const std::vector<int>& counts) {
  std::vector<int> displs;
  int at = 0;
  for (int c : counts) {
    displs.push_back(at);
    at += c + 1;
  }
  return displs;
}
std::vector<std::int64_t> wide(const std::vector<int>& counts) {
  return {counts.begin(), counts.end()};
}
std::vector<int> doubled(std::vector<int> counts) {
  for (int& c : counts) c *= 2;
  return counts;
}

Schedule gatherv(const Shape& s, std::int64_t count, bool in_place) {
  const auto counts = varying_counts(s.size, count);
  const auto me = static_cast<std::size_t>(s.rank);
  return gatherv_linear(s, 2 * std::int64_t{counts[me]}, counts, gapped_displs(counts), in_place);
}
Schedule scatterv(const Shape& s, std::int64_t count, bool in_place) {
  const auto counts = varying_counts(s.size, count), sent = doubled(counts);
  return scatterv_linear(s, sent, gapped_displs(sent), counts[static_cast<std::size_t>(s.rank)],
                         in_place);
}
Schedule allgatherv_ring_varying(const Shape& s, std::int64_t count, bool in_place) {
  const auto counts = varying_counts(s.size, count);
  const auto me = static_cast<std::size_t>(s.rank);
  return allgatherv_ring(s, 2 * std::int64_t{counts[me]}, counts, gapped_displs(counts), in_place);
}
Schedule allgatherv_bruck_varying(const Shape& s, std::int64_t count, bool in_place) {
  const auto counts = varying_counts(s.size, count);
  const auto me = static_cast<std::size_t>(s.rank);
  return allgatherv_bruck(s, 2 * std::int64_t{counts[me]}, counts, gapped_displs(counts), in_place);
}
Schedule allgatherv_linear_varying(const Shape& s, std::int64_t count, bool in_place) {
  const auto counts = varying_counts(s.size, count);
  const auto me = static_cast<std::size_t>(s.rank);
  return allgatherv_linear(s, 2 * std::int64_t{counts[me]}, counts, gapped_displs(counts),
                           in_place);
}

// Rank i sends rank j c(i, j) = count + (i + j) % 3 receive-type elements: symmetric, as MPI
// requires in place.
Schedule alltoallv(const Shape& s, std::int64_t count, bool in_place) {
  std::vector<int> recv, sent;
  for (int j = 0; j < s.size; ++j) {
    recv.push_back(count == 0 ? 0 : static_cast<int>(count) + (s.rank + j) % 3);
    sent.push_back(2 * recv.back());
  }
  const auto recv_displs = gapped_displs(recv), sent_displs = gapped_displs(sent);
  return alltoallv_linear(s, {kInput, sent, sent_displs}, {kOutput, recv, recv_displs}, in_place);
}

// Alltoallw with alltoallv's symmetric counts, each block a view (priced as a receive-type
// element); in place, they go as packed bytes.
Schedule alltoallw(const Shape& s, std::int64_t count, bool in_place) {
  std::vector<int> counts, bytes;
  for (int j = 0; j < s.size; ++j) {
    counts.push_back(count == 0 ? 0 : static_cast<int>(count) + (s.rank + j) % 3);
    bytes.push_back(8 * counts.back());
  }
  return in_place ? alltoallw_in_place(s, counts, bytes) : alltoallw_linear(s, counts, counts);
}

// A ring as a grid sees it, each dimension's pair of receives swapped (on 1 and 2 ranks one
// process is both neighbors), and as a graph with an edge to itself and a repeated one (rank r
// sends to r, r + 1, r + 1 and receives from r, r - 1, r - 1). The same types (`same_types`)
// make the messages to itself local copies.
struct Neighbors {
  std::vector<int> sources, destinations;
  bool pairs_swapped;
};
Neighbors ring(const Shape& s) {
  const int left = (s.rank + s.size - 1) % s.size, right = (s.rank + 1) % s.size;
  return {{left, right}, {left, right}, true};
}
Neighbors graph(const Shape& s) {
  const int left = (s.rank + s.size - 1) % s.size, right = (s.rank + 1) % s.size;
  return {{s.rank, left, left}, {s.rank, right, right}, false};
}
template <Neighbors (*kNeighbors)(const Shape&), bool kAllgather>
Schedule neighbor(const Shape& s, std::int64_t count, bool /*in_place: none*/) {
  const Neighbors n = kNeighbors(s);
  const RegularLayout recv{kOutput, count};
  if (kAllgather)
    return neighbor_exchange(s.rank, n.sources, n.destinations, n.pairs_swapped,
                             SameBlock{{kInput, 0, 2 * count}}, recv);
  return neighbor_exchange(s.rank, n.sources, n.destinations, n.pairs_swapped,
                           RegularLayout{kInput, 2 * count}, recv);
}
template <Neighbors (*kNeighbors)(const Shape&)>
Schedule neighbor_same_types(const Shape& s, std::int64_t count, bool /*in_place*/) {
  const Neighbors n = kNeighbors(s);
  return neighbor_exchange(s.rank, n.sources, n.destinations, n.pairs_swapped,
                           RegularLayout{kInput, count}, RegularLayout{kOutput, count});
}

const std::vector<ValidatedBuilder>& validated_builders() {
  using S = const Shape&;
  using N = std::int64_t;
  static const std::vector<ValidatedBuilder> kBuilders = {
      {"barrier_dissemination", false, kOneType,
       [](S s, N, bool) { return barrier_dissemination(s); }},
      {"barrier_linear", false, kOneType, [](S s, N, bool) { return barrier_linear(s); }},
      {"bcast_binomial", true, kOneType, [](S s, N n, bool) { return bcast_binomial(s, n); }},
      {"bcast_knomial/3", true, kOneType, [](S s, N n, bool) { return bcast_knomial(s, n, 3); }},
      {"bcast_knomial/4", true, kOneType, [](S s, N n, bool) { return bcast_knomial(s, n, 4); }},
      {"bcast_pipelined_tree", true, kOneType,
       [](S s, N n, bool) { return bcast_pipelined_tree(s, n, 2); }},
      {"bcast_scatter_allgather", true, kOneType,
       [](S s, N n, bool) { return bcast_scatter_allgather(s, n); }},
      {"reduce_binomial", true, kOneType,
       [](S s, N n, bool ip) { return reduce_binomial(s, n, ip, true); }},
      {"reduce_binomial/noncommutative", true, kOneType,
       [](S s, N n, bool ip) { return reduce_binomial(s, n, ip, false); }},
      {"reduce_pipelined_tree", true, kOneType,
       [](S s, N n, bool ip) { return reduce_pipelined_tree(s, n, ip, 2); }},
      {"allreduce_recursive_doubling", false, kOneType,
       [](S s, N n, bool ip) { return allreduce_recursive_doubling(s, n, ip); }},
      {"allreduce_rabenseifner", false, kOneType,
       [](S s, N n, bool ip) { return allreduce_rabenseifner(s, n, ip); }},
      {"allreduce_ring", false, kOneType,
       [](S s, N n, bool ip) { return allreduce_ring(s, n, ip); }},
      {"scan_recursive_doubling", false, kOneType,
       [](S s, N n, bool ip) { return scan_recursive_doubling(s, n, ip); }},
      {"exscan_recursive_doubling", false, kOneType,
       [](S s, N n, bool ip) { return exscan_recursive_doubling(s, n, ip); }},
      {"scan_linear", false, kOneType,
       [](S s, N n, bool ip) { return scan_linear(s, n, ip, 2, false); }},
      {"scan_linear_commutative", false, kOneType,
       [](S s, N n, bool ip) { return scan_linear(s, n, ip, 2, true); }},
      {"exscan_linear", false, kOneType,
       [](S s, N n, bool ip) { return exscan_linear(s, n, ip, 2, false); }},
      {"scan_binary_tree", false, kOneType,
       [](S s, N n, bool ip) { return scan_binary_tree(s, n, ip); }},
      {"exscan_binary_tree", false, kOneType,
       [](S s, N n, bool ip) { return exscan_binary_tree(s, n, ip); }},
      {"reduce_scatter_pairwise", false, kOneType,
       [](S s, N n, bool ip) {
         return reduce_scatter_pairwise(s, wide(varying_counts(s.size, n)), ip);
       }},
      {"reduce_scatter_recursive_halving", false, kOneType,
       [](S s, N n, bool) {
         return reduce_scatter_recursive_halving(s, wide(varying_counts(s.size, n)));
       }},
      {"gather_binomial", true, kTwoTypes,
       [](S s, N n, bool ip) { return gather_binomial(s, 2 * n, n, ip); }},
      {"gather_linear", true, kTwoTypes,
       [](S s, N n, bool ip) { return gather_linear(s, 2 * n, n, ip); }},
      {"gatherv_linear", true, kTwoTypes, gatherv},
      {"scatter_binomial", true, kTwoTypes,
       [](S s, N n, bool ip) { return scatter_binomial(s, 2 * n, n, ip); }},
      {"scatter_linear", true, kTwoTypes,
       [](S s, N n, bool ip) { return scatter_linear(s, 2 * n, n, ip); }},
      {"scatterv_linear", true, kTwoTypes, scatterv},
      {"allgather_bruck", false, kTwoTypes,
       [](S s, N n, bool ip) { return allgather_bruck(s, 2 * n, n, ip); }},
      {"allgather_recursive_doubling", false, kTwoTypes,
       [](S s, N n, bool ip) { return allgather_recursive_doubling(s, 2 * n, n, ip); }},
      {"allgather_ring", false, kTwoTypes,
       [](S s, N n, bool ip) { return allgather_ring(s, 2 * n, n, ip); }},
      {"allgatherv_ring", false, kTwoTypes, allgatherv_ring_varying},
      {"allgatherv_linear", false, kTwoTypes, allgatherv_linear_varying},
      {"allgatherv_bruck", false, kTwoTypes, allgatherv_bruck_varying},
      {"alltoall_bruck", false, kTwoTypes,
       [](S s, N n, bool ip) { return alltoall_bruck(s, 2 * n, n, ip); }},
      {"alltoall_pairwise", false, kTwoTypes,
       [](S s, N n, bool ip) { return alltoall_pairwise(s, 2 * n, n, ip); }},
      {"alltoall_linear", false, kTwoTypes,
       [](S s, N n, bool ip) { return alltoall_linear(s, 2 * n, n, ip); }},
      {"alltoallv_linear", false, kTwoTypes, alltoallv},
      {"alltoallw_linear", false, kOneType, alltoallw},
      {"neighbor_alltoall/ring", false, kTwoTypes, neighbor<ring, false>},
      {"neighbor_alltoall/graph", false, kTwoTypes, neighbor<graph, false>},
      {"neighbor_allgather/ring", false, kTwoTypes, neighbor<ring, true>},
      {"neighbor_allgather/graph", false, kTwoTypes, neighbor<graph, true>},
      {"neighbor_alltoall/ring/same_types", false, kOneType, neighbor_same_types<ring>},
      {"neighbor_alltoall/graph/same_types", false, kOneType, neighbor_same_types<graph>},
  };
  return kBuilders;
}

class ScheduleValidation : public testing::TestWithParam<ValidatedBuilder> {};

TEST_P(ScheduleValidation, EveryMessageIsMatchedWithItsSize) {
  const ValidatedBuilder& b = GetParam();
  const UniformModel model(Link::hockney(1, 0.01));
  for (int p = 1; p <= 17; ++p) {
    for (int root = 0; root < (b.rooted ? p : 1); ++root) {
      for (std::int64_t count : {0, 1, 5, 40}) {
        for (bool in_place : {false, true}) {
          auto build = [&](const Shape& s) {
            return b.build(s, count, in_place && (!b.rooted || s.rank == s.root));
          };
          const Simulation sim = simulate(build, p, root, model, b.sizes);
          ASSERT_TRUE(sim.ok()) << b.name << " p=" << p << " root=" << root << " count=" << count
                                << " in_place=" << in_place << "\n"
                                << sim.describe_problems();
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Builders, ScheduleValidation, testing::ValuesIn(validated_builders()),
                         [](const testing::TestParamInfo<ValidatedBuilder>& param) {
                           std::string name = param.param.name;
                           for (char& c : name)
                             if (c == '/') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace scomm::coll
