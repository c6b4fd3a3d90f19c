// Communicators to and from MPI.
#include <numeric>
#include <vector>

#include "scomm/base/error.hpp"
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

}  // namespace

Comm from_mpi(Runtime& runtime, MPI_Comm mpi_comm, const group::MapPolicy& policy,
              context::ContextId first_run) {
  if (mpi_comm == MPI_COMM_NULL) throw Error(ErrorClass::kComm, "MPI_COMM_NULL");
  int inter = 0;
  MPI_Comm_test_inter(mpi_comm, &inter);
  if (inter) throw Error(ErrorClass::kComm, "intercommunicators are not supported");
  int rank = 0;
  MPI_Comm_rank(mpi_comm, &rank);
  group::MapPtr map = group::build_map(base_ranks(runtime, mpi_comm), policy);
  MpiReducer reducer(mpi_comm);
  const context::IdRun run =
      context::allocate_run(runtime.options().algorithm, runtime.blocks(), reducer, 1 + first_run);
  Comm comm = runtime.open(map, rank, runtime.block_derivation(run.first));
  if (run.count > 1) comm.reserve_blocks(runtime, run.first + 1, run.count - 1);
  return comm;
}

MPI_Comm to_mpi(Runtime& runtime, Comm& comm) {
  std::vector<int> members(static_cast<std::size_t>(comm.size()));
  comm.channel().map().decode(0, members);
  MPI_Group world = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
  MPI_Comm_group(runtime.origin(), &world);
  MPI_Group_incl(world, comm.size(), members.data(), &group);
  MPI_Comm out = MPI_COMM_NULL;
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
  return out;
}

const std::shared_ptr<NativeComm>& Comm::native(Runtime& runtime) {
  Extras& extras = this->extras();
  if (!extras.native) extras.native = std::make_shared<NativeComm>(to_mpi(runtime, *this));
  return extras.native;
}

}  // namespace scomm::comm
