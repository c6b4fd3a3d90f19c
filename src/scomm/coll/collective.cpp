#include "scomm/coll/collective.hpp"

#include <memory>
#include <string>

#include "scomm/base/error.hpp"
#include "scomm/p2p/point_to_point.hpp"

namespace scomm::coll {

namespace {

p2p::Request run_to_end(const Call& call, const Schedule& schedule, const Binding& binding) {
  agree_before_launch(call);
  count_launch(call);
  ScheduleRun run(call.runtime.engine(), call.comm.channel_ptr(),
                  comm::internal_tag(call.runtime, call.comm), schedule, binding);
  run.run();
  return p2p::Request::completed();
}

// Runs the entry's kept run to the end once `prepare(run)` has readied it (or made it). A run
// that fails is not kept: it may hold abandoned requests.
template <typename Prepare>
void run_kept(ScheduleCache::Entry& entry, Prepare&& prepare) {
  try {
    prepare(entry.finished_run);
    entry.finished_run->run();
  } catch (...) {
    entry.finished_run.reset();
    throw;
  }
}

}  // namespace

p2p::Request run_again(const Call& call, ScheduleCache::Entry& entry, const Binding& binding,
                       const ScheduleCache::VectorSpans& vectors) {
  agree_before_launch(call);
  ScheduleCache::Launches& launches = call.cache->launches();
  launches = {launches.count + 1, &entry, vectors};
  const int tag = comm::internal_tag(call.runtime, call.comm);
  run_kept(entry, [&](std::unique_ptr<ScheduleRun>& run) {
    if (run)
      run->rebind(tag, binding);
    else
      run = std::make_unique<ScheduleRun>(call.runtime.engine(), call.comm.channel_ptr(), tag,
                                          *entry.schedule, binding);
  });
  return p2p::Request::completed();
}

// Flattened, as ScheduleRun::run is: a replayed call runs its rounds in this one frame.
[[gnu::flatten]] void replay(const Call& call, ScheduleCache::Entry& entry) {
  const int tag = comm::internal_tag(call.runtime, call.comm);
  if (entry.finished_run->replay_direct(tag)) return;
  count_launch(call);
  run_kept(entry, [&](std::unique_ptr<ScheduleRun>& run) { run->restart(tag); });
}

bool replay_single(const Call& call, const SingleTransfer& single) {
  p2p::MatchingEngine& engine = call.runtime.engine();
  const p2p::Channel& channel = call.comm.channel();
  if (!replays_in_mpi(engine, channel, !single.send, true)) return false;
  const int mpi_tag = channel.mpi_tag(comm::internal_tag(call.runtime, call.comm));
  if (single.send)
    send_endpoint(engine, single.endpoint, mpi_tag, channel.base());
  else
    p2p::check_mpi(receive_endpoint(engine, single.endpoint, mpi_tag, channel.base()), "receive");
  return true;
}

p2p::Request validated(const Call& call, const Binding& binding) {
  const MPI_Comm base = call.comm.channel().base();
  check_committed(TypeLayout::of(binding.send_type), base);
  if (binding.recv_type != binding.send_type)
    check_committed(TypeLayout::of(binding.recv_type), base);
  for (const View& view : binding.views) check_committed(TypeLayout::of(view.type), base);
  return p2p::Request::completed();
}

p2p::Request launch(const Call& call, const std::shared_ptr<const Schedule>& schedule,
                    const Binding& binding) {
  if (call.validates) return validated(call, binding);
  if (call.blocking) return run_to_end(call, *schedule, binding);
  count_launch(call);
  const int tag = comm::internal_tag(call.runtime, call.comm);
  auto run = std::make_unique<ScheduleRun>(call.runtime.engine(), call.comm.channel_ptr(), tag,
                                           *schedule, binding);
  run->run_in_background(schedule);
  run->progress();  // posts the first round now
  return p2p::Request::operation(std::move(run));
}

p2p::Request launch(const Call& call, Schedule schedule, const Binding& binding) {
  if (call.validates) return validated(call, binding);
  if (call.blocking) return run_to_end(call, schedule, binding);  // no copy to the heap
  return launch(call, std::make_shared<const Schedule>(std::move(schedule)), binding);
}

void throw_bad_root(int root, int size) {
  throw Error(ErrorClass::kRoot, "root " + std::to_string(root) +
                                     " is not in the communicator (size " + std::to_string(size) +
                                     ")");
}

void throw_bad_data(std::int64_t count, MPI_Datatype type) {
  if (count < 0) throw Error(ErrorClass::kCount, "negative count " + std::to_string(count));
  if (type == MPI_DATATYPE_NULL) throw Error(ErrorClass::kType, "MPI_DATATYPE_NULL");
  throw Error(ErrorClass::kBuffer, "null buffer with count > 0");
}

void check_bottom_data(std::int64_t count, MPI_Datatype type) {
  if (bytes_of(count, type) > 0 && !p2p::at_absolute_addresses(type)) throw_bad_data(count, type);
}

void throw_in_place_not_allowed() {
  throw Error(ErrorClass::kBuffer, "SCOMM_IN_PLACE is not allowed for this buffer here");
}

void throw_null_op() {
  throw Error(ErrorClass::kOp, "MPI_OP_NULL");
}

void throw_aliased() {
  throw Error(ErrorClass::kBuffer,
              "the send buffer is the receive buffer: pass SCOMM_IN_PLACE instead");
}

std::int64_t bytes_of(std::int64_t count, MPI_Datatype type) {
  MPI_Count size = 0;  // a type of more than INT_MAX bytes has no int size
  MPI_Type_size_x(type, &size);
  return count * static_cast<std::int64_t>(size);
}

bool is_commutative(MPI_Op op) {
  int commutative = 1;
  MPI_Op_commutative(op, &commutative);
  return commutative != 0;
}

}  // namespace scomm::coll
