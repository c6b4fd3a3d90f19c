// What every collective shares: the call (communicator, blocking or not, algorithm selection),
// argument checks that report MPI-style errors, and launching a schedule.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <utility>

#include "scomm/base/error.hpp"
#include "scomm/coll/executor.hpp"
#include "scomm/coll/native_collective.hpp"
#include "scomm/coll/op_domain.hpp"
#include "scomm/coll/schedule_cache.hpp"
#include "scomm/coll/selection.hpp"
#include "scomm/coll/shape.hpp"
#include "scomm/comm/comm.hpp"
#include "scomm/comm/runtime.hpp"
#include "scomm/p2p/mpi_check.hpp"

namespace scomm::coll {

struct Signature;  // agreement.hpp

// Check mode's agreement for one blocking call (agreement.hpp): its members agree on `signature`
// once, just before the call's first message, or, where the call's own checks fail, with the
// error in their stead.
struct PendingAgreement {
  const Signature& signature;
  bool settled = false;
};

struct Call {
  comm::Runtime& runtime;
  comm::Comm& comm;
  const Selection& selection;
  bool blocking;
  ScheduleCache* cache = nullptr;  // the communicator's; none: every call builds its schedule
  bool check_agreement = false;    // SCOMM_COLL_CHECK: blocking calls agree first (agreement.hpp)
  PendingAgreement* agreement = nullptr;  // check mode's, for a blocking call
  // Checks the arguments and builds the schedule, but launches nothing (a persistent
  // collective's init): every launch below returns a completed request at once.
  bool validates = false;

  Shape shape(int root = 0) const noexcept { return {comm.rank(), comm.size(), root}; }
  // The algorithm of this call (Selection::choose). A forced `native` needs the communicator's
  // MPI twin, whose making waits for every member (inside MPI_Comm_create_group): a nonblocking
  // call, which MPI starts locally, runs the table's choice while the twin is not made yet. Its
  // members agree, as they make the twin in the same collective call and start their
  // collectives on the communicator in one order.
  Algorithm choose(Operation operation, std::int64_t bytes, int size,
                   bool commutative = true) const {
    const Algorithm algorithm = selection.choose(operation, bytes, size, commutative);
    if (algorithm != Algorithm::kNative || blocking || comm.has_native()) return algorithm;
    return selection.table_choice(operation, bytes, size, commutative);
  }
};

// Check mode: the members agree on the call's signature, `invalid` being this member's own
// checks' error (null: they passed); throws at every member where they disagree or some member's
// checks failed (agreement.cpp).
void settle_agreement(const Call& call, const Error* invalid);
// In check mode, the members agree before the call's first message.
inline void agree_before_launch(const Call& call) {
  if (call.agreement != nullptr && !call.agreement->settled) [[unlikely]]
    settle_agreement(call, nullptr);
}

// Counts a launch on the communicator (replay.hpp: a call that launched once may be replayed).
inline void count_launch(const Call& call) noexcept {
  if (call.cache == nullptr) return;
  ScheduleCache::Launches& launches = call.cache->launches();
  ++launches.count;
  launches.rerun = nullptr;  // its vectors mean nothing without it
}

// A persistent collective's init (Call::validates) launches nothing, but refuses what a start's
// binding would (ScheduleRun::lay_out, bind_views): a type not committed. Returns a completed
// request.
p2p::Request validated(const Call& call, const Binding& binding);
// Runs `schedule` to the end (blocking: the returned request is complete) or starts it as a
// nonblocking collective that progresses whenever scomm waits.
p2p::Request launch(const Call& call, const std::shared_ptr<const Schedule>& schedule,
                    const Binding& binding);
p2p::Request launch(const Call& call, Schedule schedule, const Binding& binding);
// Runs the entry's schedule to the end, on its last run when there is one (then nothing is
// built or allocated); `vectors` are the arrays the call's vectors came from.
p2p::Request run_again(const Call& call, ScheduleCache::Entry& entry, const Binding& binding,
                       const ScheduleCache::VectorSpans& vectors);
// Runs the entry's schedule to the end again on the buffers of its last run, which must have
// been a blocking call's that ended well (a replay, replay.hpp): by blocking MPI calls alone
// where it can (ScheduleRun::replay_direct), else as a run.
void replay(const Call& call, ScheduleCache::Entry& entry);
// A replay of a schedule that is one transfer (ScheduleRun::single_transfer): that transfer by
// one blocking MPI call, its endpoint kept in the replay record, past the run. False, having done
// nothing, where background operations need progress or the channel's receives need the
// matching engine (replay() then).
bool replay_single(const Call& call, const SingleTransfer& single);
// As launch(), with the communicator's cached schedule for `key` and `vectors` when there is
// one, else the one `build()` returns (cached for the next call).
template <typename Build>
p2p::Request launch(const Call& call, const ScheduleKey& key, ScheduleCache::Vectors vectors,
                    Build&& build, const Binding& binding) {
  if (call.cache == nullptr) return launch(call, build(), binding);
  ScheduleCache::Entry& entry = call.cache->get(key, vectors, build);
  if (call.validates) return validated(call, binding);
  if (call.blocking) return run_again(call, entry, binding, ScheduleCache::VectorSpans(vectors));
  return launch(call, entry.schedule, binding);
}
template <typename Build>
p2p::Request launch(const Call& call, const ScheduleKey& key, Build&& build,
                    const Binding& binding) {
  return launch(call, key, {}, std::forward<Build>(build), binding);
}

// SimGrid SMPI 3.32's nonblocking reductions are wrong in place and with user-defined operations
// (coll_reduction_test, native): under it a blocking call keeps MPI's blocking form.
#if defined(SMPI_H)
inline constexpr bool kNativeBlockingForm = true;
#else
inline constexpr bool kNativeBlockingForm = false;
#endif

// Runs the base MPI's own collective on the communicator's MPI twin: `mpi(comm, request)` calls
// the nonblocking form when `request` is not null, the blocking one otherwise. A blocking call
// starts the nonblocking form too, at every member alike (MPI matches blocking collectives only
// with blocking ones), and finishes it as scomm waits: advancing scomm's own pending operations
// meanwhile, as MPI's progress rule asks of a process blocked in a call (one member inside
// MPI_Barrier while another's allocation waited for its pending idup once waited for good).
// Under SMPI (kNativeBlockingForm) it calls the blocking form, inside which they wait.
template <typename MpiCollective>
p2p::Request launch_native(const Call& call, MpiCollective&& mpi) {
  if (call.validates) return p2p::Request::completed();
  agree_before_launch(call);
  count_launch(call);
  const std::shared_ptr<comm::NativeComm>& native = call.comm.native(call.runtime);
  if (call.blocking && kNativeBlockingForm) {
    p2p::check_mpi(mpi(native->get(), nullptr), "native collective");
    return p2p::Request::completed();
  }
  MPI_Request request = MPI_REQUEST_NULL;
  p2p::check_mpi(mpi(native->get(), &request), "native collective");
  if (!call.blocking)
    return p2p::Request::operation(std::make_unique<NativeCollective>(request, native));
  NativeCollective(request, native).finish(call.runtime.engine());
  return p2p::Request::completed();
}

// The `mpi(comm, request)` that launch_native calls, for an MPI collective pair taking the same
// arguments: `nonblocking(args..., comm, request)` and `blocking(args..., comm)`, e.g.
// (MPI_Ibcast, MPI_Bcast, buffer, count, type, root).
template <typename Nonblocking, typename Blocking, typename... Args>
auto native_pair(Nonblocking nonblocking, Blocking blocking, Args... args) {
  return [=](MPI_Comm comm, MPI_Request* request) {
    return request != nullptr ? nonblocking(args..., comm, request) : blocking(args..., comm);
  };
}

// launch_native for an MPI collective pair (native_pair's arguments).
template <typename Nonblocking, typename Blocking, typename... Args>
p2p::Request launch_native(const Call& call, Nonblocking nonblocking, Blocking blocking,
                           Args... args) {
  return launch_native(call, native_pair(nonblocking, blocking, args...));
}

// The failures of the checks below, out of line: the checks themselves are inline (every
// collective passes them) and build no message unless they fail.
[[noreturn]] void throw_bad_root(int root, int size);
[[noreturn]] void throw_bad_data(std::int64_t count, MPI_Datatype type);
// Bytes of `count` elements of `type`.
std::int64_t bytes_of(std::int64_t count, MPI_Datatype type);

// Error(kRoot) unless 0 <= root < size. Inline, the message built only on failure: every rooted
// collective passes here.
inline void check_root(const Call& call, int root) {
  if (root < 0 || root >= call.comm.size()) [[unlikely]]
    throw_bad_root(root, call.comm.size());
}
// Error(kCount) for a negative count, Error(kType) for MPI_DATATYPE_NULL.
inline void check_count_and_type(std::int64_t count, MPI_Datatype type) {
  if (count < 0 || type == MPI_DATATYPE_NULL) [[unlikely]]
    throw_bad_data(count, type);
}
// Error(kBuffer) unless `count` elements of `type` at MPI_BOTTOM (null) are empty or lie at
// absolute addresses (p2p::at_absolute_addresses).
void check_bottom_data(std::int64_t count, MPI_Datatype type);
// check_count_and_type, and Error(kBuffer) for a null buffer that must hold data at address 0.
inline void check_data(const void* buffer, std::int64_t count, MPI_Datatype type) {
  check_count_and_type(count, type);
  if (buffer == nullptr && count > 0) [[unlikely]]
    check_bottom_data(count, type);
}
[[noreturn]] void throw_in_place_not_allowed();
// Error(kBuffer) for MPI_IN_PLACE, which this buffer cannot be in this call.
inline void check_not_in_place(const void* buffer) {
  if (buffer == MPI_IN_PLACE) [[unlikely]]
    throw_in_place_not_allowed();
}
// check_not_in_place, then check_data.
inline void check_buffer(const void* buffer, std::int64_t count, MPI_Datatype type) {
  check_not_in_place(buffer);
  check_data(buffer, count, type);
}
[[noreturn]] void throw_null_op();
[[noreturn]] void throw_aliased();
// Error(kOp) for MPI_OP_NULL and for an operation MPI does not define on `type` (op_domain.hpp).
inline void check_op(MPI_Op op, MPI_Datatype type) {
  if (op == MPI_OP_NULL) [[unlikely]]
    throw_null_op();
  if (!op_defined_on(op, type)) [[unlikely]]
    throw_undefined_op(op, type);
}
// Error(kBuffer) when a send buffer is the receive buffer without MPI_IN_PLACE (MPI forbids the
// aliasing; it would silently corrupt the result).
inline void check_not_aliased(const void* sendbuf, const void* recvbuf, std::int64_t count) {
  if (sendbuf == recvbuf && sendbuf != nullptr && count > 0) [[unlikely]]
    throw_aliased();
}
bool is_commutative(MPI_Op op);

}  // namespace scomm::coll
