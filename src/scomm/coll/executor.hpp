// Runs a schedule over scomm point-to-point: each round's receives and sends are posted together
// on the communicator's channel with the collective's internal tag, and its local copies and
// reductions run once they have all completed. A nonblocking collective is a ScheduleRun inside
// a request, registered with the matching engine as background work, so that waiting for
// anything in scomm advances every collective in flight (MPI's progress rule).
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "scomm/coll/endpoint.hpp"
#include "scomm/coll/owned_types.hpp"
#include "scomm/coll/schedule.hpp"
#include "scomm/coll/type_layout.hpp"
#include "scomm/p2p/request.hpp"

namespace scomm::coll {

// One of a w-form's views (schedule.hpp): where its element 0 lies, and its type. A view of the
// send buffer is never written.
struct View {
  const void* address = nullptr;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

// What the schedule's named buffers are on this rank. The input is never written.
struct Binding {
  const void* input = nullptr;
  MPI_Datatype send_type = MPI_DATATYPE_NULL;
  void* output = nullptr;
  MPI_Datatype recv_type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;           // for reductions
  std::span<const View> views = {};  // the schedule's, in order; read only while binding
};

class ScheduleRun final : public p2p::Operation {
 public:
  // `tag`: the collective's internal tag on the channel, held until the run ends; where a
  // collective still in flight on the channel holds it, the run waits for it in turn (hold).
  // `schedule` must outlive the run; a background run holds its owner.
  ScheduleRun(p2p::MatchingEngine& engine, p2p::ChannelPtr channel, int tag,
              const Schedule& schedule, const Binding& binding);
  ~ScheduleRun() override;
  ScheduleRun(const ScheduleRun&) = delete;
  ScheduleRun& operator=(const ScheduleRun&) = delete;

  // Nonblocking: advances as far as possible without waiting; true once done. A failure (a
  // truncated message, a non-member's message) is thrown now and on every later call.
  bool progress() override;
  // Waiting for a background run that is the engine's only one: it leaves the background and
  // runs to the end as a blocking collective does, inside MPI (a nonblocking collective waited
  // for at once costs what the blocking one does). Otherwise it polls with the others.
  void finish(p2p::MatchingEngine& engine) override;
  // Blocking: runs to the end, waiting in MPI when nothing else needs progress, and releases
  // the tag.
  void run();
  // Makes a run that ended in run() ready to run its schedule again on `binding`'s buffers
  // with `tag` (held as by the constructor); it keeps what does not depend on them.
  void rebind(int tag, const Binding& binding);
  // As rebind, on the buffers it ran on last.
  void restart(int tag);
  // Registers the run as background work of the engine (nonblocking collectives), keeping
  // `schedule` (the one it runs) alive until it ends.
  void run_in_background(std::shared_ptr<const Schedule> schedule);
  // Runs the schedule again on the buffers of its last run, which ended in run() having
  // exchanged inside MPI, by blocking MPI calls and the local steps alone, with `tag` (not held:
  // where no operation runs in the background, none holds a tag): what a replayed small
  // collective costs. False, having done nothing, unless every round and local step was
  // resolved for it (direct rounds; plain copies, reductions of predefined types in order),
  // nothing runs in the background, and MPI matches the channel's receives alone.
  bool replay_direct(int tag);
  // After a run that exchanged inside MPI: its one transfer, where the schedule is that alone
  // and on the input or output buffer (a temporary lives in the run); else nothing.
  std::optional<SingleTransfer> single_transfer() const noexcept;

 private:
  struct TypedBuffer {
    std::byte* base = nullptr;  // address of element 0
    const TypeLayout* layout = nullptr;
  };
  // Temporaries of up to this many bytes in all live inside the run (no allocation).
  static constexpr std::size_t kInlineTempBytes = 256;

  void bind(const Binding& binding);
  void lay_out(const Binding& binding);  // the types' layouts and the temporaries laid out by them
  void hold(int tag);
  bool take_tag(bool blocking);
  void release_tag() noexcept;
  bool advance(bool blocking);
  bool advance_keeping_failure(bool blocking);
  bool exchange(std::size_t index);
  struct DirectRound;
  void exchange_endpoints(const DirectRound& direct, int mpi_tag);
  void send_receive(const Endpoint& to, const Endpoint& from, int mpi_tag);
  // send_receive() while receives wait in the engine: both posted, then polled until complete.
  [[gnu::noinline]] void send_receive_polling(const Endpoint& to, const Endpoint& from,
                                              int mpi_tag);
  void resolve_direct_rounds();
  void add_direct_transfers(const DirectRound& direct);
  bool resolve_direct_locals(const Round& round);
  bool one_way_and_short(const Round& round) const;
  void start_round(const Round& round);
  bool send_detached(const Transfer& t);
  bool detaches(const TypeLayout& layout, std::int64_t bytes) const;
  bool round_complete(bool blocking);
  bool mpi_requests_complete(bool blocking);
  bool engine_requests_complete(bool blocking);
  void abandon_requests() noexcept;
  void run_local(const LocalStep& step);
  void reduce(const LocalStep& step);
  void reduce_in_order(const std::byte* from, std::byte* to, std::int64_t count, MPI_Datatype type,
                       bool predefined);
  void run_locals(const Round& round);
  void run_locals_in_flight(const Round& round);
  void copy(const Block& from, const Block& to);
  void typed_copy(const std::byte* in, const TypeLayout& source, std::byte* out,
                  const TypeLayout& target, std::int64_t in_count, std::int64_t out_count);
  [[gnu::noinline]] void packed_copy(const std::byte* in, const TypeLayout& source, std::byte* out,
                                     const TypeLayout& target, std::int64_t in_count,
                                     std::int64_t out_count);
  const TypeLayout& temp_layout(TypeId type);
  std::byte* address(const Block& block) const;
  const TypedBuffer& buffer(Slot slot) const { return buffers_[slot]; }
  void bind_views(std::span<const View> views);
  void bind_temps();

  p2p::MatchingEngine& engine_;
  // Here, where its alignment costs no padding.
  alignas(std::max_align_t) std::byte inline_temps_[kInlineTempBytes];
  p2p::ChannelPtr channel_;
  int tag_ = 0;
  // The flags side by side: with the few inline arrays below, a run stays within the sizes
  // glibc's per-thread cache serves (1,032 bytes; executor.cpp checks), and a nonblocking
  // collective allocates one.
  bool tag_held_ = false;
  bool waiting_for_tag_ = false;  // queued on the channel for `tag_` (hold)
  bool commutative_ = true;       // known only where the schedule reduces on the right
  bool posted_ = false;
  bool background_ = false;
  bool replays_directly_ = false;  // every round and local step resolved for replay_direct
  bool direct_receives_ = false;   // some round replay_direct runs receives
  const Schedule& schedule_;
  std::shared_ptr<const Schedule> schedule_owner_;  // a background run's
  MPI_Op op_;
  TypeLayout send_layout_, recv_layout_;
  std::unique_ptr<OwnedTypes> owned_types_;  // rare: see owned_types.hpp
  OwnedTypes& owned_types() {
    if (!owned_types_) owned_types_ = std::make_unique<OwnedTypes>();
    return *owned_types_;
  }
  std::vector<TypeLayout> view_layouts_;
  // Input, output, views, temporaries: inline for the common few, on the heap beyond.
  static constexpr std::size_t kInlineBuffers = 8;
  std::array<TypedBuffer, kInlineBuffers> inline_buffers_;
  std::vector<TypedBuffer> heap_buffers_;
  TypedBuffer* buffers_ = inline_buffers_.data();
  std::unique_ptr<std::byte[]> heap_temps_;
  std::size_t round_ = 0;
  // The round's transfers posted straight on MPI (receives first), completed together by one
  // MPI_Waitall or MPI_Testall; inline for the common few.
  static constexpr std::size_t kInlineRequests = 8;
  std::array<MPI_Request, kInlineRequests> inline_requests_;
  std::array<MPI_Status, kInlineRequests> inline_statuses_;
  std::unique_ptr<MPI_Request[]> heap_requests_;
  std::unique_ptr<MPI_Status[]> heap_statuses_;
  MPI_Request* requests_ = inline_requests_.data();
  MPI_Status* statuses_ = inline_statuses_.data();
  int posted_requests_ = 0;
  int posted_receives_ = 0;
  // exchange()'s rounds are resolved once per binding, on their first run (restart keeps them):
  // a repeated small collective computes no address, count or base rank again.
  struct DirectRound {
    bool direct;                    // exchange() may run it
    std::uint32_t first;            // its transfers in endpoints_: receives, then sends
    std::uint32_t receives, sends;  // how many (the round's vectors would take a division each)
  };
  // What replay_direct runs, every round's in one list: no loop per round, nothing for a round
  // without transfers. A transfer names its endpoint (a send-receive: the receive's, the send's
  // next); a local step is a copy of `count` bytes, or a reduction of `count` elements of `type`
  // with the run's operation, to = from op to (a step that reduces on the right is resolved only
  // where the operation commutes).
  struct DirectStep {
    enum class Kind : std::uint8_t { kSend, kReceive, kSendReceive, kCopy, kReduce };
    Kind kind;
    bool ends_round;  // a receive: the last of its round, which reports the round's first failure
    std::uint32_t endpoint;
    MPI_Datatype type;
    const std::byte* from;
    std::byte* to;
    std::int64_t count;
  };
  std::vector<DirectRound> direct_rounds_;  // empty: not resolved for this binding
  std::vector<Endpoint> endpoints_;
  std::vector<DirectStep> direct_steps_;
  // Receives that must go through the matching engine (it holds messages of the channel).
  std::vector<p2p::Request> engine_requests_;
  std::exception_ptr failure_;
};

}  // namespace scomm::coll
