// SCOMM_Dist_graph_*, SCOMM_Topo_test: distributed graph communicators (comm/dist_graph.hpp),
// the general form's edges delivered to their ends by a sparse exchange (coll/sparse_exchange.hpp).
#include <algorithm>
#include <exception>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/coll/operations.hpp"
#include "scomm/coll/sparse_exchange.hpp"
#include "scomm/comm/dist_graph.hpp"

namespace {

using namespace scomm::capi;
using scomm::Error;
using scomm::ErrorClass;
namespace coll = scomm::coll;
namespace comm = scomm::comm;
namespace group = scomm::group;

// A blocking collective of the library's own on `comm`: the selection table's algorithms, never
// the user's forced ones (a "native" one would make an MPI twin for one call).
coll::Call internal_call(comm::Comm& comm) {
  static const coll::Selection table;
  return coll::Call{runtime(), comm, table, true};
}

// Whether `flag` holds at some member of `comm`.
bool any_member(comm::Comm& comm, bool flag) {
  int mine = flag ? 1 : 0, any = 0;
  coll::allreduce(internal_call(comm), &mine, &any, 1, MPI_INT, MPI_MAX);
  return any != 0;
}

// Runs `check` at every member of `e`: where it fails at some member, every member throws (that
// one its own error), so that none goes on into a creation the others never join. Returns whether
// `check` returned true at some member.
template <typename Check>
bool checked_everywhere(CommEntry& e, Check&& check) {
  std::exception_ptr failure;
  bool flag = false;
  try {
    flag = check();
  } catch (const Error&) {
    failure = std::current_exception();
  }
  int mine[2] = {failure ? 1 : 0, flag ? 1 : 0}, any[2] = {0, 0};
  coll::allreduce(internal_call(e.comm), mine, any, 2, MPI_INT, MPI_MAX);
  if (failure) std::rethrow_exception(failure);
  if (any[0] != 0) throw Error(ErrorClass::kArg, "another member's arguments are invalid");
  return any[1] != 0;
}

std::vector<int> copied(const int* values, int n, const char* what) {
  if (n < 0) throw Error(ErrorClass::kArg, std::string(what) + " has a negative length");
  if (n > 0) require(values, what);
  return std::vector<int>(values, values + n);
}

bool is_weighted(const int* weights) {
  return weights != SCOMM_UNWEIGHTED;
}

// Whether `weights` is an array of weights (not SCOMM_UNWEIGHTED nor SCOMM_WEIGHTS_EMPTY).
bool has_weight_array(const int* weights) {
  return is_weighted(weights) && weights != SCOMM_WEIGHTS_EMPTY;
}

std::vector<int> copied_weights(const int* weights, int n, const char* what) {
  if (!has_weight_array(weights)) return {};
  return copied(weights, n, what);
}

// The edges a member names in SCOMM_Dist_graph_create, each as a record for each of its two ends
// ({kOut, destination, weight} for the source, {kIn, source, weight} for the destination), the
// records grouped by the member they go to (only the members that get some: no array of p).
enum Side : int { kIn = 0, kOut = 1 };
constexpr int kRecordInts = 3;

class EdgeRecords {
 public:
  explicit EdgeRecords(int size) : size_(size) {}

  // Error(kRank) for an end outside the communicator, Error(kArg) for a negative weight.
  void add(int source, int destination, int weight) {
    group::check_rank(source, size_, "source");
    group::check_rank(destination, size_, "destination");
    if (weight < 0) throw Error(ErrorClass::kArg, "a negative weight");
    append(source, {kOut, destination, weight});
    append(destination, {kIn, source, weight});
  }
  std::vector<coll::SparseBlock> blocks() const {
    std::vector<coll::SparseBlock> out;
    for (const auto& [member, ints] : by_member_) out.push_back({member, ints});
    return out;
  }

 private:
  void append(int member, std::initializer_list<int> record) {
    std::vector<int>& to = by_member_[member];
    to.insert(to.end(), record);
  }

  int size_;
  std::map<int, std::vector<int>> by_member_;
};

std::vector<coll::SparseBlock> edge_records(int size, int n, const int sources[],
                                            const int degrees[], const int destinations[],
                                            const int weights[]) {
  const std::vector<int> from = copied(sources, n, "sources");
  const std::vector<int> degree = copied(degrees, n, "degrees");
  const bool weight_given = has_weight_array(weights);
  EdgeRecords records(size);
  std::size_t edge = 0;
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (degree[i] < 0)
      throw Error(ErrorClass::kArg, "degrees[" + std::to_string(i) + "] is negative");
    if (degree[i] > 0) require(destinations, "destinations");
    for (int k = 0; k < degree[i]; ++k, ++edge)
      records.add(from[i], destinations[edge], weight_given ? weights[edge] : 1);
  }
  return records.blocks();
}

// The caller's lists from the records it received, in order of the members that named them.
group::DistGraph graph_of_records(int size, const std::vector<coll::SparseBlock>& received,
                                  bool weighted) {
  std::vector<int> sources, source_weights, destinations, destination_weights;
  for (const coll::SparseBlock& block : received)
    for (std::size_t at = 0; at + kRecordInts <= block.ints.size(); at += kRecordInts) {
      const bool out = block.ints[at] == kOut;
      (out ? destinations : sources).push_back(block.ints[at + 1]);
      (out ? destination_weights : source_weights).push_back(block.ints[at + 2]);
    }
  return group::DistGraph(size, std::move(sources), std::move(source_weights),
                          std::move(destinations), std::move(destination_weights), weighted);
}

// Copies the first `capacity` of `from` into `to`: where the room is shorter than the list, MPI
// returns its first part (MPI-4.1 8.5.5). Error(kArg) for a negative room.
void copy_out(const std::vector<int>& from, int capacity, int* to, const char* what) {
  if (capacity < 0)
    throw Error(ErrorClass::kArg,
                std::string(what) + ": negative room " + std::to_string(capacity));
  const auto count = std::min(from.size(), static_cast<std::size_t>(capacity));
  if (count == 0) return;
  require(to, what);
  std::copy_n(from.begin(), count, to);
}

}  // namespace

extern "C" {

int SCOMM_Dist_graph_create_adjacent(SCOMM_Comm comm_old, int indegree, const int sources[],
                                     const int sourceweights[], int outdegree,
                                     const int destinations[], const int destweights[],
                                     MPI_Info /*info*/, int /*reorder: scomm keeps the ranks*/,
                                     SCOMM_Comm* comm_dist_graph) {
  return on_comm("SCOMM_Dist_graph_create_adjacent", comm_old, [&](CommEntry& e) {
    std::optional<group::DistGraph> graph;
    const bool repeats = checked_everywhere(e, [&] {
      require(comm_dist_graph, "comm_dist_graph");
      // MPI's rule: SCOMM_UNWEIGHTED for both or neither (the weights of one were never checked).
      if (is_weighted(sourceweights) != is_weighted(destweights))
        throw Error(ErrorClass::kArg,
                    "sourceweights and destweights: SCOMM_UNWEIGHTED for one only");
      graph.emplace(e.comm.size(), copied(sources, indegree, "sources"),
                    copied_weights(sourceweights, indegree, "sourceweights"),
                    copied(destinations, outdegree, "destinations"),
                    copied_weights(destweights, outdegree, "destweights"),
                    is_weighted(sourceweights) && is_weighted(destweights));
      return graph->repeats_here();
    });
    graph->set_repeats_anywhere(repeats);
    *comm_dist_graph = new_comm_handle(
        comm::dist_graph_create_adjacent(runtime(), e.comm, std::move(*graph)), e.errhandler);
  });
}

int SCOMM_Dist_graph_create(SCOMM_Comm comm_old, int n, const int sources[], const int degrees[],
                            const int destinations[], const int weights[], MPI_Info /*info*/,
                            int /*reorder: scomm keeps the ranks*/, SCOMM_Comm* comm_dist_graph) {
  return on_comm("SCOMM_Dist_graph_create", comm_old, [&](CommEntry& e) {
    std::vector<coll::SparseBlock> records;
    // Weighted where some member names weighted edges or passes SCOMM_WEIGHTS_EMPTY: one that
    // names no edge with some other pointer cannot tell (MPI_UNWEIGHTED is a null pointer in some
    // MPIs, as an empty array's data may be).
    const bool weighted = checked_everywhere(e, [&] {
      require(comm_dist_graph, "comm_dist_graph");
      records = edge_records(e.comm.size(), n, sources, degrees, destinations, weights);
      return (n > 0 && is_weighted(weights)) || weights == SCOMM_WEIGHTS_EMPTY;
    });
    // The records go to their members on the new communicator, which no other message uses yet.
    comm::Comm made = comm::duplicate(runtime(), e.comm);
    group::DistGraph graph = graph_of_records(
        made.size(), coll::sparse_exchange(internal_call(made), records, 0), weighted);
    graph.set_repeats_anywhere(any_member(made, graph.repeats_here()));
    comm::attach(made, std::move(graph));
    *comm_dist_graph = new_comm_handle(std::move(made), e.errhandler);
  });
}

int SCOMM_Dist_graph_neighbors_count(SCOMM_Comm c, int* indegree, int* outdegree, int* weighted) {
  return on_comm("SCOMM_Dist_graph_neighbors_count", c, [&](CommEntry& e) {
    require(indegree, "indegree");
    require(outdegree, "outdegree");
    require(weighted, "weighted");
    const group::DistGraph& graph = comm::graph_of(e.comm);
    *indegree = static_cast<int>(graph.sources().size());
    *outdegree = static_cast<int>(graph.destinations().size());
    *weighted = graph.weighted() ? 1 : 0;
  });
}

int SCOMM_Dist_graph_neighbors(SCOMM_Comm c, int maxindegree, int sources[], int sourceweights[],
                               int maxoutdegree, int destinations[], int destweights[]) {
  return on_comm("SCOMM_Dist_graph_neighbors", c, [&](CommEntry& e) {
    const group::DistGraph& graph = comm::graph_of(e.comm);
    copy_out(graph.sources(), maxindegree, sources, "sources");
    copy_out(graph.destinations(), maxoutdegree, destinations, "destinations");
    if (!graph.weighted()) return;
    if (is_weighted(sourceweights))
      copy_out(graph.source_weights(), maxindegree, sourceweights, "sourceweights");
    if (is_weighted(destweights))
      copy_out(graph.destination_weights(), maxoutdegree, destweights, "destweights");
  });
}

int SCOMM_Topo_test(SCOMM_Comm c, int* status) {
  return on_comm("SCOMM_Topo_test", c, [&](CommEntry& e) {
    require(status, "status");
    *status = e.comm.grid() ? SCOMM_CART : e.comm.graph() ? SCOMM_DIST_GRAPH : SCOMM_UNDEFINED;
  });
}

}  // extern "C"
