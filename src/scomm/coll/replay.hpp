// Replaying a repeated blocking collective. Iterative codes call one collective with the same
// arguments again and again (an allreduce of a residual into the same variable, a bcast of a
// flag). When a blocking call repeats the last blocking call of its operation on the
// communicator exactly -- the same argument values, with predefined datatypes and operation, so
// that nothing its checks or its selection saw can differ -- and that call launched only the
// cached schedule it ran, the call runs that schedule's run again on the buffers it has, skipping
// the argument checks, the selection, the cache key and the binding. A v-form's
// arrays are the same addresses, so only their values are compared with the ones its schedule was
// built for.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>

#include "scomm/coll/collective.hpp"

namespace scomm::coll {

// Whether `op` is one of MPI's predefined operations or MPI_OP_NULL; whether `type` is one of the
// common predefined datatypes or MPI_DATATYPE_NULL. None of them can be freed and made again with
// other contents. Handles are compared, never read: an argument that means nothing at this rank
// may be anything.
bool is_predefined_op(MPI_Op op) noexcept;
bool is_predefined_type(MPI_Datatype type) noexcept;

// `start()` launches the collective; a blocking call with `args` (among them the datatypes
// `types` and the reduction operation `op`, MPI_OP_NULL for none) replays the last one where it
// may, and is recorded for the next.
template <typename Start>
p2p::Request run_or_replay(const Call& call, Operation operation, const CallArgs& args,
                           std::initializer_list<MPI_Datatype> types, MPI_Op op, Start&& start) {
  ScheduleCache& cache = *call.cache;
  std::optional<ScheduleCache::Replay>& last = cache.replay(operation);
  if (call.blocking && last && last->args == args && last->entry->generation == last->generation &&
      (last->vectors.view().empty() ||
       ScheduleCache::same(last->entry->vectors, last->vectors.view()))) {
    try {
      if (!last->single || !replay_single(call, *last->single)) replay(call, *last->entry);
      return p2p::Request::completed();  // seen here to hold nothing: no cleanup is compiled
    } catch (...) {
      last.reset();  // its run is gone with the failure
      throw;
    }
  }
  last.reset();
  const std::uint64_t before = cache.launches().count;
  p2p::Request done = start();
  const ScheduleCache::Launches& launched = cache.launches();
  ScheduleCache::Entry* entry = launched.rerun;  // set when the last launch was a rerun
  if (call.blocking && !call.check_agreement && launched.count == before + 1 &&
      entry == cache.entry(operation) && is_predefined_op(op) &&
      std::all_of(types.begin(), types.end(), is_predefined_type))
    last = ScheduleCache::Replay{args, entry, entry->generation, launched.vectors,
                                 entry->finished_run->single_transfer()};
  return done;
}

}  // namespace scomm::coll
