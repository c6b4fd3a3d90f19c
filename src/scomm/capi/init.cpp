// SCOMM_Init, SCOMM_Finalize, SCOMM_Initialized, SCOMM_Finalized, SCOMM_Get_library_version,
// SCOMM_Abort, SCOMM_Tag_ub: the runtime's life and what it publishes.
#include <cstring>
#include <string>
#include <utility>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/coll/agreement.hpp"
#include "scomm/comm/create.hpp"
#include "scomm/p2p/mpi_check.hpp"
#include "scomm/topo/core_sharing.hpp"
#include "scomm/topo/discovery.hpp"

using scomm::Error;
using scomm::ErrorClass;
using scomm::capi::CommEntry;
using scomm::capi::context;
using scomm::capi::guarded;
using scomm::capi::on_comm;
using scomm::capi::require;

namespace {

// Requests and communicators hold contexts of the runtime: they go first.
void tear_down() noexcept {
  // Successors, not new tables: a handle of this session must be stale in the next one, never
  // another object.
  auto& ctx = context();
  {
    // The old requests go while the runtime lives, after the table is replaced: an idup's
    // pending attribute copies run their delete callbacks, which may make requests.
    const auto old_requests = std::exchange(ctx.requests, ctx.requests.successor());
  }
  ctx.persistent_requests = 0;
  ctx.messages = ctx.messages.successor();
  // Live messages go as freed ones do (SCOMM_Request_free): the engine cancels the receives
  // among them below, which MPI would keep posted (MPICH then gives a later session's message to
  // such a receive, whose buffer may be gone).
  if (ctx.runtime)
    ctx.plain_requests.for_each_live([&](int, scomm::capi::PlainRequestEntry& plain) {
      plain.request.release(ctx.runtime->engine());
    });
  ctx.plain_requests = ctx.plain_requests.successor();
  ctx.comms = ctx.comms.successor(1);  // SCOMM_COMM_WORLD
  // Attributes of communicators that are gone, without their delete callbacks (MPI calls those
  // for MPI_COMM_SELF's alone), and their keyvals.
  ctx.attributes.reset();
  ctx.keyvals = ctx.keyvals.successor();
  if (ctx.runtime) ctx.runtime->take_unreceived_messages();
  ctx.runtime.reset();
  ctx.shared_schedules.clear();
  ctx.world_levels = scomm::topo::Levels();
  ctx.world_costs = scomm::topo::LevelCosts();
  ctx.multilevel_by_default = false;
  ctx.coll_check = false;
}

// MPI_Finalize deletes MPI_COMM_SELF's attributes before anything else: a program that never
// called SCOMM_Finalize is finalized here, while MPI still works, instead of freeing its base
// communicators after MPI_Finalize (which aborts the job) when the library unloads.
int finalize_with_mpi(MPI_Comm, int, void*, void*) {
  tear_down();
  return MPI_SUCCESS;
}

void finalize_at_mpi_finalize() {
  int keyval = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, finalize_with_mpi, &keyval, nullptr);
  MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr);
  MPI_Comm_free_keyval(&keyval);  // the attribute keeps it until MPI_Finalize deletes it
}

}  // namespace

extern "C" {

int SCOMM_Init(void) {
  return guarded("SCOMM_Init", [] {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized)
      throw Error(ErrorClass::kArg, "MPI must be initialized (and not finalized) first");
    if (context().runtime) throw Error(ErrorClass::kArg, "scomm is already initialized");
    auto& ctx = context();
    // The collectives' settings are read before the first message (under SMPI the ranks share one
    // environment, which another may change meanwhile).
    ctx.coll_selection = scomm::coll::Selection::from_environment();
    const auto cores_shared = scomm::topo::cores_shared_setting();
    ctx.coll_check = scomm::coll::check_mode_from_environment();
    scomm::topo::MachineOnDemand machine;  // hwloc's view, loaded once if at all
    scomm::topo::Discovered discovered = scomm::topo::discover_levels(MPI_COMM_WORLD, machine);
    ctx.world_levels = std::move(discovered.levels);
    ctx.world_costs = std::move(discovered.costs);
    ctx.multilevel_by_default = discovered.user_levels;
    ctx.node_leader = discovered.node.leader;
    ctx.coll_selection.set_cores_shared(scomm::topo::ranks_share_cores(
        MPI_COMM_WORLD, cores_shared, machine, discovered.node.size));
    ctx.runtime = std::make_unique<scomm::comm::Runtime>(
        MPI_COMM_WORLD, scomm::comm::RuntimeOptions::from_environment());
    ctx.tag_ub = ctx.runtime->layout().published_tag_ub();
    try {
      const int world =
          ctx.comms.emplace(scomm::comm::world_from_mpi(
                                *ctx.runtime, MPI_COMM_WORLD, ctx.map_policy,
                                scomm::comm::world_first_run(ctx.runtime->blocks(),
                                                             ctx.runtime->options().derive_bits)),
                            scomm::capi::ErrhandlerRef(scomm::capi::kErrorsAreFatal));
      if (world != SCOMM_COMM_WORLD) throw Error(ErrorClass::kIntern, "SCOMM_COMM_WORLD taken");
      ctx.comms.get_live(world).comm.set_name("SCOMM_COMM_WORLD");  // as MPI names its world
    } catch (...) {
      ctx.runtime.reset();
      throw;
    }
    finalize_at_mpi_finalize();
    ctx.ever_initialized = true;
  });
}

int SCOMM_Finalize(void) {
  return guarded("SCOMM_Finalize", [] {
    scomm::capi::runtime();  // reports a missing SCOMM_Init
    tear_down();
  });
}

int SCOMM_Initialized(int* flag) {
  return guarded("SCOMM_Initialized", [&] {
    require(flag, "flag");
    *flag = context().ever_initialized ? 1 : 0;
  });
}

int SCOMM_Finalized(int* flag) {
  return guarded("SCOMM_Finalized", [&] {
    require(flag, "flag");
    *flag = context().ever_initialized && !context().runtime ? 1 : 0;
  });
}

int SCOMM_Get_library_version(char* version, int* resultlen) {
  return guarded("SCOMM_Get_library_version", [&] {
    require(version, "version");
    require(resultlen, "resultlen");
    char mpi[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    scomm::p2p::check_mpi(MPI_Get_library_version(mpi, &length), "MPI_Get_library_version");
    // Up to its '\0': Open MPI 4.1 counts that in the length too.
    const std::string text = "scomm " + std::to_string(SCOMM_VERSION_MAJOR) + "." +
                             std::to_string(SCOMM_VERSION_MINOR) + "." +
                             std::to_string(SCOMM_VERSION_PATCH) + " on " +
                             std::string(mpi, strnlen(mpi, static_cast<std::size_t>(length)));
    scomm::capi::copy_c_string(text, SCOMM_MAX_LIBRARY_VERSION_STRING, version, resultlen);
  });
}

int SCOMM_Abort(SCOMM_Comm comm, int errorcode) {
  return on_comm("SCOMM_Abort", comm, [&](CommEntry& e) {
    scomm::p2p::check_mpi(MPI_Abort(e.comm.channel().base(), errorcode), "MPI_Abort");
  });
}

int SCOMM_Tag_ub(int* tag_ub) {
  return guarded("SCOMM_Tag_ub", [&] {
    require(tag_ub, "tag_ub");
    *tag_ub = scomm::capi::runtime().layout().published_tag_ub();
  });
}

}  // extern "C"
