// Communicators to and from MPI.
#include <array>
#include <memory>
#include <numeric>
#include <vector>

#include "scomm/base/error.hpp"
#include "scomm/comm/channel_reducer.hpp"
#include "scomm/comm/create.hpp"
#include "scomm/comm/mpi_reducer.hpp"
#include "scomm/group/builder.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace scomm::comm {
namespace {

// Base ranks of the members of `mpi_comm`, in its rank order.
std::vector<group::Rank> base_ranks(Runtime& runtime, MPI_Comm mpi_comm) {
  int size = 0;
  MPI_Comm_size(mpi_comm, &size);
  MPI_Group from = MPI_GROUP_NULL, to = MPI_GROUP_NULL;
  MPI_Comm_group(mpi_comm, &from);
  MPI_Comm_group(runtime.world(), &to);
  std::vector<int> ranks(static_cast<std::size_t>(size)), out(ranks.size());
  std::iota(ranks.begin(), ranks.end(), 0);
  MPI_Group_translate_ranks(from, size, ranks.data(), to, out.data());
  MPI_Group_free(&from);
  MPI_Group_free(&to);
  return out;
}

group::VirtualTopology grid_of_mpi(MPI_Comm mpi_comm) {
  int ndims = 0;
  MPI_Cartdim_get(mpi_comm, &ndims);
  const auto n = static_cast<std::size_t>(ndims);
  std::vector<int> dims(n), periods(n), coords(n);
  MPI_Cart_get(mpi_comm, ndims, dims.data(), periods.data(), coords.data());
  return group::CartGrid(std::move(dims), std::vector<bool>(periods.begin(), periods.end()));
}

group::VirtualTopology graph_of_mpi(MPI_Comm mpi_comm, int size) {
  int indegree = 0, outdegree = 0, weighted = 0;
  MPI_Dist_graph_neighbors_count(mpi_comm, &indegree, &outdegree, &weighted);
  std::vector<int> sources(static_cast<std::size_t>(indegree)), source_weights(sources.size());
  std::vector<int> destinations(static_cast<std::size_t>(outdegree));
  std::vector<int> destination_weights(destinations.size());
  MPI_Dist_graph_neighbors(
      mpi_comm, indegree, sources.data(), weighted ? source_weights.data() : MPI_UNWEIGHTED,
      outdegree, destinations.data(), weighted ? destination_weights.data() : MPI_UNWEIGHTED);
  group::DistGraph graph(size, std::move(sources), std::move(source_weights),
                         std::move(destinations), std::move(destination_weights), weighted != 0);
  const int here = graph.repeats_here() ? 1 : 0;
  int anywhere = 0;
  MPI_Allreduce(&here, &anywhere, 1, MPI_INT, MPI_MAX, mpi_comm);
  graph.set_repeats_anywhere(anywhere != 0);
  return graph;
}

// The virtual topology of an MPI communicator that scomm represents (MPI_GRAPH's is not kept).
// SimGrid SMPI 3.32 aborts in MPI_Topo_test (and has no distributed graphs): none there.
std::shared_ptr<const group::VirtualTopology> topology_of_mpi(MPI_Comm mpi_comm, int size) {
#if defined(SMPI_H)
  return nullptr;
#endif
  int kind = MPI_UNDEFINED;
  MPI_Topo_test(mpi_comm, &kind);
  if (kind == MPI_CART)
    return std::make_shared<const group::VirtualTopology>(grid_of_mpi(mpi_comm));
  if (kind == MPI_DIST_GRAPH)
    return std::make_shared<const group::VirtualTopology>(graph_of_mpi(mpi_comm, size));
  return nullptr;
}

// MPI_UNWEIGHTED, or the weights (MPI_WEIGHTS_EMPTY for none: null would read as unweighted).
const int* weights_or_flag(const group::DistGraph& graph, const std::vector<int>& weights) {
  if (!graph.weighted()) return MPI_UNWEIGHTED;
  return weights.empty() ? MPI_WEIGHTS_EMPTY : weights.data();
}

// `plain` (freed) given `topology`, for MPI libraries that ask for it (MPI_Cart_coords,
// MPI_Neighbor_alltoall, ...). Collective over the members; the ranks stay as they are. SimGrid
// SMPI 3.32 aborts in MPI_Dist_graph_create_adjacent: a graph's stays plain there.
MPI_Comm with_topology(MPI_Comm plain, const group::VirtualTopology& topology) {
  MPI_Comm out = MPI_COMM_NULL;
  int rc = MPI_SUCCESS;
  if (const auto* grid = std::get_if<group::CartGrid>(&topology)) {
    const std::vector<int> periods(grid->periods().begin(), grid->periods().end());
    rc = MPI_Cart_create(plain, grid->ndims(), grid->dims().data(), periods.data(), 0, &out);
  } else {
#if defined(SMPI_H)
    return plain;
#endif
    const auto& graph = std::get<group::DistGraph>(topology);
    rc = MPI_Dist_graph_create_adjacent(
        plain, static_cast<int>(graph.sources().size()), graph.sources().data(),
        weights_or_flag(graph, graph.source_weights()),
        static_cast<int>(graph.destinations().size()), graph.destinations().data(),
        weights_or_flag(graph, graph.destination_weights()), MPI_INFO_NULL, 0, &out);
  }
  MPI_Comm_free(&plain);
  p2p::check_mpi(rc, "the MPI twin's topology");
  return out;
}

Comm converted(Runtime& runtime, MPI_Comm mpi_comm, const group::MapPolicy& policy,
               context::ContextId first_run, MpiReducer::Mode waiting) {
  if (mpi_comm == MPI_COMM_NULL) throw Error(ErrorClass::kComm, "MPI_COMM_NULL");
  int inter = 0;
  MPI_Comm_test_inter(mpi_comm, &inter);
  if (inter) throw Error(ErrorClass::kComm, "intercommunicators are not supported");
  int rank = 0;
  MPI_Comm_rank(mpi_comm, &rank);
  group::MapPtr map = group::build_map(base_ranks(runtime, mpi_comm), policy);
  MpiReducer reducer(mpi_comm, waiting);
  const context::IdRun run =
      context::allocate_run(runtime.options().algorithm, runtime.blocks_for_allocation(), reducer,
                            1 + first_run, [&] { runtime.engine().progress_background(); });
  Comm comm = runtime.open(map, rank, runtime.block_derivation(run.first));
  if (run.count > 1) comm.reserve_blocks(runtime, run.first + 1, run.count - 1);
  if (auto topology = topology_of_mpi(mpi_comm, comm.size()))
    comm.set_topology(std::move(topology));
  return comm;
}

}  // namespace

Comm from_mpi(Runtime& runtime, MPI_Comm mpi_comm, const group::MapPolicy& policy) {
  return converted(runtime, mpi_comm, policy, 0, MpiReducer::Mode::kNonblocking);
}

Comm world_from_mpi(Runtime& runtime, MPI_Comm world, const group::MapPolicy& policy,
                    context::ContextId first_run) {
  return converted(runtime, world, policy, first_run, MpiReducer::Mode::kBlocking);
}

namespace {

// Waits until every member has come to the conversion, advancing the engine's background
// operations meanwhile: MPI_Comm_create_group then blocks inside MPI, where nothing of scomm's
// advances, and a member still waiting for a pending scomm operation that needs this process
// (a bitmask allocation waits for one that ranks first) would otherwise never come.
void wait_for_members(Runtime& runtime, Comm& comm) {
  ChannelReducer reducer(runtime.engine(), comm.channel_ptr(), internal_tag(runtime, comm), false);
  std::array<std::int64_t, 1> nothing{0};
  reducer.start_max(nothing);
  while (!reducer.test()) runtime.engine().progress_background();
}

}  // namespace

MPI_Comm to_mpi(Runtime& runtime, Comm& comm) {
  wait_for_members(runtime, comm);
  std::vector<int> members(static_cast<std::size_t>(comm.size()));
  comm.channel().map().decode(0, members);
  MPI_Group world = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
  MPI_Comm_group(runtime.origin(), &world);
  MPI_Group_incl(world, comm.size(), members.data(), &group);
  MPI_Comm out = MPI_COMM_NULL;
  // The origin is the user's communicator: for this call its failure (MPI out of communicators)
  // returns, for the scomm communicator's handler to report, instead of aborting the job.
  const p2p::ErrorsReturned origin_returns(runtime.origin());
  // The context is unique among this process's live communicators and the same at every
  // member, so it tells concurrent conversions apart. The parent is the runtime's origin, not a
  // base communicator: with a base, two members' creations hung in Open MPI 4.1's context-id
  // agreement (ompi_comm_nextcid) while the other ranks had gone on to free the runtime and
  // make the next (coll_basic_test's native bcast at 4 ranks, three launches side by side: 4 of 6
  // hung; with the origin 0 of 6).
  const int rc =
      MPI_Comm_create_group(runtime.origin(), group, static_cast<int>(comm.context()), &out);
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  p2p::check_mpi(rc, "MPI_Comm_create_group");
  if (comm.topology()) out = with_topology(out, *comm.topology());
  origin_returns.hand_down(out);
  return out;
}

const std::shared_ptr<NativeComm>& Comm::native(Runtime& runtime) {
  Extras& extras = this->extras();
  if (!extras.native) {
    extras.native = std::make_shared<NativeComm>(to_mpi(runtime, *this));
    // The native collectives' failures come back as error codes, for the scomm communicator's
    // handler to report, instead of aborting in MPI's default handler.
    MPI_Comm_set_errhandler(extras.native->get(), MPI_ERRORS_RETURN);
  }
  return extras.native;
}

}  // namespace scomm::comm
