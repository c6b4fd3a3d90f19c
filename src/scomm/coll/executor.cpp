#include "scomm/coll/executor.hpp"

#include "scomm/base/wait_sparing_core.hpp"

#include <algorithm>
#include <cassert>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "scomm/base/error.hpp"
#include "scomm/coll/reduce_local.hpp"
#include "scomm/p2p/completion.hpp"
#include "scomm/p2p/mpi_check.hpp"
#include "scomm/p2p/packed_buffer.hpp"
#include "scomm/p2p/point_to_point.hpp"

namespace scomm::coll {

// glibc's per-thread cache serves chunks of up to 1,032 bytes: a nonblocking collective's run
// allocated there costs no trip to the arena.
static_assert(sizeof(ScheduleRun) <= 1032, "a run outgrew glibc's per-thread cache");

namespace {

[[noreturn, gnu::cold, gnu::noinline]] void throw_count_overflow(std::int64_t count) {
  throw Error(ErrorClass::kCount,
              "a collective message of " + std::to_string(count) + " elements exceeds INT_MAX");
}

[[noreturn, gnu::cold, gnu::noinline]] void throw_truncated_copy(std::int64_t bytes,
                                                                 std::int64_t room) {
  throw Error(ErrorClass::kTruncate, "a block of " + std::to_string(bytes) +
                                         " bytes copied into room for " + std::to_string(room));
}

int mpi_count(std::int64_t count) {
  if (count > INT_MAX) [[unlikely]]
    throw_count_overflow(count);
  return static_cast<int>(count);
}

std::size_t round_up(std::size_t bytes) {
  constexpr std::size_t kAlign = alignof(std::max_align_t);
  return (bytes + kAlign - 1) / kAlign * kAlign;
}

// `count` elements of `type` at `in` into `bytes` bytes at `out`. On the run's base
// communicator, whose errors return (MPI_COMM_SELF's abort by default).
void pack(const std::byte* in, MPI_Datatype type, std::int64_t count, std::byte* out,
          std::int64_t bytes, MPI_Comm comm) {
  const p2p::PackedBuffer from(in, type);
  int position = 0;
  p2p::check_mpi(MPI_Pack(from.buffer(), mpi_count(count), from.type(), out, mpi_count(bytes),
                          &position, comm),
                 "MPI_Pack");
}

// `bytes` packed bytes at `in` into `count` elements of `type` at `out`; as pack().
void unpack(const std::byte* in, std::int64_t bytes, std::byte* out, MPI_Datatype type,
            std::int64_t count, MPI_Comm comm) {
  const p2p::PackedBuffer to(out, type);
  int position = 0;
  p2p::check_mpi(
      MPI_Unpack(in, mpi_count(bytes), &position, to.buffer(), mpi_count(count), to.type(), comm),
      "MPI_Unpack");
}

}  // namespace

ScheduleRun::ScheduleRun(p2p::MatchingEngine& engine, p2p::ChannelPtr channel, int tag,
                         const Schedule& schedule, const Binding& binding)
    : engine_(engine), channel_(std::move(channel)), schedule_(schedule) {
  if (schedule_.slot_count() > kInlineBuffers) {
    heap_buffers_.resize(schedule_.slot_count());
    buffers_ = heap_buffers_.data();
  }
  if (schedule_.max_round_transfers() > kInlineRequests) {
    heap_requests_ = std::make_unique<MPI_Request[]>(schedule_.max_round_transfers());
    heap_statuses_ = std::make_unique<MPI_Status[]>(schedule_.max_round_transfers());
    requests_ = heap_requests_.get();
    statuses_ = heap_statuses_.get();
  }
  bind(binding);
  hold(tag);
}

ScheduleRun::~ScheduleRun() {
  if (background_) engine_.remove_background(*this);
  if (posted_requests_ != 0 || !engine_requests_.empty()) abandon_requests();
  if (tag_held_) channel_->release_internal_tag(tag_);
  if (waiting_for_tag_) channel_->leave_internal_tag_queue(this);
}

void ScheduleRun::rebind(int tag, const Binding& binding) {
  bind(binding);
  restart(tag);
}

void ScheduleRun::restart(int tag) {
  round_ = 0;
  hold(tag);
}

// The layouts (and the temporaries laid out by them) stay while the types are the same
// predefined ones: the common repeated call asks MPI nothing.
void ScheduleRun::bind(const Binding& binding) {
  const auto same = [](const TypeLayout& layout, MPI_Datatype type) {
    return layout.predefined && layout.type == type;
  };
  op_ = binding.op;  // before lay_out, which lays out temporaries by it
  if (!same(send_layout_, binding.send_type) || !same(recv_layout_, binding.recv_type)) [[unlikely]]
    lay_out(binding);
  if (op_ != MPI_OP_NULL && schedule_.reduces_right()) [[unlikely]] {
    int commutative = 1;
    MPI_Op_commutative(op_, &commutative);
    commutative_ = commutative != 0;
  }
  buffers_[kInput] = {static_cast<std::byte*>(const_cast<void*>(binding.input)), &send_layout_};
  buffers_[kOutput] = {static_cast<std::byte*>(binding.output), &recv_layout_};
  if (schedule_.views() != 0) bind_views(binding.views);
  direct_rounds_.clear();
  replays_directly_ = false;
}

void ScheduleRun::lay_out(const Binding& binding) {
  send_layout_ = TypeLayout::of(binding.send_type);
  recv_layout_ =
      binding.recv_type == binding.send_type ? send_layout_ : TypeLayout::of(binding.recv_type);
  check_committed(send_layout_, channel_->base());
  if (binding.recv_type != binding.send_type) check_committed(recv_layout_, channel_->base());
  // Spread types for temporaries of types whose elements overlap, made once per binding. A
  // reduction's temporaries keep the type's layout: they are reduced with the caller's buffers
  // by one type (and its receive buffers may not overlap, in MPI's rules).
  if (op_ == MPI_OP_NULL) {
    if (needs_spread(send_layout_)) [[unlikely]]
      owned_types().spread(0, send_layout_);
    if (needs_spread(recv_layout_)) [[unlikely]]
      owned_types().spread(1, recv_layout_);
  }
  bind_temps();
}

// A tag that a collective started before still holds here (one of 192 collectives ago, which
// completed at other members, not yet here) is waited for in turn: a member that failed instead
// would leave the others' messages to the next collective on the tag.
void ScheduleRun::hold(int tag) {
  tag_ = tag;
  tag_held_ = channel_->hold_internal_tag(tag);
  if (tag_held_) [[likely]]
    return;
  channel_->queue_for_internal_tag(tag, this);
  waiting_for_tag_ = true;
}

// Whether the run holds its tag, after taking it in turn if it was waiting; a blocking run
// waits for it, advancing the collectives in flight (the one that holds it among them).
bool ScheduleRun::take_tag(bool blocking) {
  const auto taken = [this] {
    if (!channel_->hold_internal_tag_in_turn(tag_, this)) return false;
    waiting_for_tag_ = false;
    tag_held_ = true;
    return true;
  };
  if (taken() || !blocking) return tag_held_;
  wait_sparing_core([&] {
    engine_.progress_background();
    return taken();
  });
  return true;
}

void ScheduleRun::release_tag() noexcept {
  if (!tag_held_) return;
  channel_->release_internal_tag(tag_);
  tag_held_ = false;
}

// A run abandoned after a failure leaves no MPI request behind: receives into its buffers are
// cancelled or withdrawn and completed, sends left to complete on their own, kept by the engine
// as a freed message's are (MatchingEngine::keep_released).
void ScheduleRun::abandon_requests() noexcept {
  for (int i = 0; i < posted_requests_; ++i) {
    if (requests_[i] == MPI_REQUEST_NULL) continue;
    if (i < posted_receives_) {
      MPI_Cancel(&requests_[i]);
      MPI_Wait(&requests_[i], MPI_STATUS_IGNORE);
    } else {
      engine_.keep_released(std::exchange(requests_[i], MPI_REQUEST_NULL), {}, false);
    }
  }
  for (p2p::Request& request : engine_requests_) request.abandon(engine_);
}

// A view's layout is asked of MPI again unless its type is the same predefined one as the last
// binding's.
void ScheduleRun::bind_views(std::span<const View> views) {
  assert(views.size() == schedule_.views());
  view_layouts_.resize(views.size());
  for (std::size_t v = 0; v < views.size(); ++v) {
    TypeLayout& layout = view_layouts_[v];
    if (!layout.predefined || layout.type != views[v].type) {
      layout = TypeLayout::of(views[v].type);
      check_committed(layout, channel_->base());
    }
    buffers_[Schedule::view_slot(v)] = {
        static_cast<std::byte*>(const_cast<void*>(views[v].address)), &layout};
  }
}

// All temporaries in one block, each starting at its type's true lower bound (the address MPI
// is given for element 0 is the block's minus true_lb).
void ScheduleRun::bind_temps() {
  std::size_t total = 0;
  for (const TempBuffer& temp : schedule_.temps()) {
    const TypeLayout& layout = temp_layout(temp.type);
    total += round_up(static_cast<std::size_t>(layout.span(temp.count)));
  }
  std::byte* block = inline_temps_;
  if (total > kInlineTempBytes) {
    // Not zeroed: a temporary's gaps (a sparse reduction type's) cost no resident memory.
    heap_temps_ = std::make_unique_for_overwrite<std::byte[]>(total);
    block = heap_temps_.get();
  }
  std::size_t slot = Schedule::view_slot(schedule_.views());
  for (const TempBuffer& temp : schedule_.temps()) {
    const TypeLayout& layout = temp_layout(temp.type);
    buffers_[slot++] = {displaced(block, -layout.true_lb), &layout};
    block += round_up(static_cast<std::size_t>(layout.span(temp.count)));
  }
}

const TypeLayout& ScheduleRun::temp_layout(TypeId type) {
  if (type == TypeId::kByte) {
    return TypeLayout::bytes();
  }
  const bool send = type == TypeId::kSend;
  const TypeLayout& layout = send ? send_layout_ : recv_layout_;
  if (!needs_spread(layout) || op_ != MPI_OP_NULL) [[likely]]
    return layout;
  return owned_types_->spread_layout(send ? 0 : 1);  // lay_out made it
}

std::byte* ScheduleRun::address(const Block& block) const {
  const TypedBuffer& b = buffer(block.slot);
  // An empty block of an absent buffer (a v-form with zero counts) has no address to compute.
  if (block.count == 0) return b.base;
  return displaced(b.base, block.offset * b.layout->extent);
}

// A run done lets its tag go at once, not when its request is completed: a collective waiting
// for the tag may be what the program waits in.
bool ScheduleRun::progress() {
  if (!advance_keeping_failure(false)) return false;
  release_tag();
  return true;
}

void ScheduleRun::finish(p2p::MatchingEngine& engine) {
  if (!engine_.background_is_only(*this)) {
    Operation::finish(engine);
    return;
  }
  engine_.remove_background(*this);
  background_ = false;
  advance_keeping_failure(true);
  release_tag();
}

// A failure is thrown now and by every later call.
bool ScheduleRun::advance_keeping_failure(bool blocking) {
  if (failure_) std::rethrow_exception(failure_);
  try {
    return advance(blocking);
  } catch (...) {
    failure_ = std::current_exception();
    throw;
  }
}

// Flattened: a blocking collective runs its rounds without a call frame per round or step.
[[gnu::flatten]] void ScheduleRun::run() {
  advance(true);
  release_tag();
}

void ScheduleRun::run_in_background(std::shared_ptr<const Schedule> schedule) {
  // The caller may free its derived types before the run completes (MPI lets it): the run moves
  // its data by duplicates. Temporaries' layouts point at these layouts, and spread types are
  // the run's own already. Not a reduction's: its user-defined operation must be given the
  // caller's type (MPI-4.1 6.9.5; a library's function may tell types apart by their handles),
  // and a predefined operation takes no duplicate, which MPI counts as a derived type.
  const auto keep = [this](TypeLayout& layout) {
    if (kDuplicatesTypes && op_ == MPI_OP_NULL && !layout.predefined &&
        layout.type != MPI_DATATYPE_NULL) [[unlikely]]
      owned_types().duplicate(layout);
  };
  const bool one_type = recv_layout_.type == send_layout_.type;
  keep(send_layout_);
  if (one_type)
    recv_layout_.type = send_layout_.type;
  else
    keep(recv_layout_);
  for (TypeLayout& layout : view_layouts_) keep(layout);
  schedule_owner_ = std::move(schedule);
  engine_.add_background(*this);
  background_ = true;
}

bool ScheduleRun::advance(bool blocking) {
  if (waiting_for_tag_ && !take_tag(blocking)) [[unlikely]]
    return false;
  const auto& rounds = schedule_.rounds();
  // Blocking in MPI stalls nothing when no other operation needs scomm's progress.
  const bool exchange_in_mpi = blocking && !engine_.has_background();
  const std::size_t round_count = rounds.size();  // read once: the compiler cannot see that
                                                  // the calls below leave it alone
  while (round_ < round_count) {
    const Round& round = rounds[round_];
    if (!posted_) {
      if (!(exchange_in_mpi && exchange(round_))) start_round(round);
      if (round.local_first) run_locals_in_flight(round);
    }
    if (posted_ && !round_complete(blocking)) return false;
    if (!round.local_first) run_locals(round);
    posted_ = false;
    ++round_;
  }
  return true;
}

// A round of at most one receive and one send, or a one-by-one round of short receives or short
// sends (Round::one_by_one), whose receives MPI matches by itself: run by blocking MPI_Recv,
// MPI_Send or MPI_Sendrecv calls, cheaper than posting requests and waiting for them. What small
// collectives are made of. False, having done nothing, otherwise.
// Inline into advance(), its one caller: a small blocking collective pays no call frame for it.
[[gnu::always_inline]] inline bool ScheduleRun::exchange(std::size_t index) {
  if (direct_rounds_.empty()) resolve_direct_rounds();
  const DirectRound& direct = direct_rounds_[index];
  if (!direct.direct) return false;
  if (direct.receives != 0 && !p2p::mpi_matches_alone(*channel_)) return false;
  exchange_endpoints(direct, channel_->mpi_tag(tag_));
  return true;
}

// One send and one receive, by MPI_Sendrecv (both posted and polled while receives wait in the
// engine).
[[gnu::always_inline]] inline void ScheduleRun::send_receive(const Endpoint& to,
                                                             const Endpoint& from, int mpi_tag) {
  if (engine_.has_background()) {
    send_receive_polling(to, from, mpi_tag);
    return;
  }
  // SimGrid SMPI 3.32's MPI_Sendrecv returns MPI_SUCCESS for a truncated receive and says so
  // only in the status: both are read (an MPI that leaves MPI_ERROR alone leaves it clear).
  MPI_Status status;
  status.MPI_ERROR = MPI_SUCCESS;
  const int rc = MPI_Sendrecv(to.buffer, to.count, to.type, to.rank, mpi_tag, from.buffer,
                              from.count, from.type, from.rank, mpi_tag, channel_->base(), &status);
  p2p::check_mpi(rc != MPI_SUCCESS ? rc : status.MPI_ERROR, "receive");
}

void ScheduleRun::send_receive_polling(const Endpoint& to, const Endpoint& from, int mpi_tag) {
  const MPI_Comm base = channel_->base();
  MPI_Request receive = MPI_REQUEST_NULL, send = MPI_REQUEST_NULL;
  p2p::check_mpi(MPI_Irecv(from.buffer, from.count, from.type, from.rank, mpi_tag, base, &receive),
                 "MPI_Irecv");
  const int started = MPI_Isend(to.buffer, to.count, to.type, to.rank, mpi_tag, base, &send);
  if (started != MPI_SUCCESS) {
    MPI_Cancel(&receive);  // a later round's message must not land in it
    MPI_Wait(&receive, MPI_STATUS_IGNORE);
    p2p::check_mpi(started, "send");
  }
  MPI_Status status;
  const int received = p2p::wait_progressing(engine_, receive, status);
  const int sent = p2p::wait_progressing(engine_, send, status);  // both complete before a throw
  p2p::check_mpi(received, "receive");
  p2p::check_mpi(sent, "send");
}

// The direct round's transfers, by MPI_Sendrecv for one of each, else its sends, then its
// receives.
[[gnu::always_inline]] inline void ScheduleRun::exchange_endpoints(const DirectRound& direct,
                                                                   int mpi_tag) {
  const Endpoint* from = endpoints_.data() + direct.first;
  const Endpoint* to = from + direct.receives;
  if (direct.sends == 1 && direct.receives == 1) {
    send_receive(*to, *from, mpi_tag);
    return;
  }
  const MPI_Comm base = channel_->base();
  for (const Endpoint* end = to + direct.sends; to != end; ++to)
    send_endpoint(engine_, *to, mpi_tag, base);
  // Every receive, even after one failed: none of the round's messages is left behind.
  int first_failure = MPI_SUCCESS;
  for (const Endpoint* end = from + direct.receives; from != end; ++from) {
    const int rc = receive_endpoint(engine_, *from, mpi_tag, base);
    if (first_failure == MPI_SUCCESS) first_failure = rc;
  }
  p2p::check_mpi(first_failure, "receive");
}

// Which rounds exchange() may run, and their transfers as MPI takes them; whether
// replay_direct() may run them all, and its steps.
void ScheduleRun::resolve_direct_rounds() {
  endpoints_.clear();
  direct_steps_.clear();
  replays_directly_ = true;
  direct_receives_ = false;
  const p2p::Channel& channel = *channel_;
  const auto endpoint = [&](const Transfer& t, bool may_detach) {
    const TypeLayout& layout = *buffer(t.block.slot).layout;
    const std::int64_t bytes = t.block.count * layout.size;
    return Endpoint{address(t.block),
                    mpi_count(t.block.count),
                    layout.type,
                    channel.select(t.peer),
                    may_detach && detaches(layout, bytes),
                    bytes};
  };
  for (const Round& round : schedule_.rounds()) {
    const bool single = round.receives.size() <= 1 && round.sends.size() <= 1;
    const bool direct = single || (round.one_by_one && one_way_and_short(round));
    direct_receives_ = direct_receives_ || (direct && !round.receives.empty());
    direct_rounds_.push_back({direct, static_cast<std::uint32_t>(endpoints_.size()),
                              static_cast<std::uint32_t>(round.receives.size()),
                              static_cast<std::uint32_t>(round.sends.size())});
    if (!direct) {
      replays_directly_ = false;
      continue;
    }
    for (const Transfer& t : round.receives) endpoints_.push_back(endpoint(t, false));
    // As in start_round: only the sends of a round without receives detach.
    for (const Transfer& t : round.sends) endpoints_.push_back(endpoint(t, round.receives.empty()));
    if (replays_directly_) add_direct_transfers(direct_rounds_.back());
    replays_directly_ = replays_directly_ && resolve_direct_locals(round);
  }
  if (!replays_directly_) direct_steps_.clear();
}

// The direct round's transfers as replay_direct runs them, in exchange_endpoints' order.
void ScheduleRun::add_direct_transfers(const DirectRound& direct) {
  using Kind = DirectStep::Kind;
  if (direct.sends == 1 && direct.receives == 1) {
    direct_steps_.push_back({Kind::kSendReceive, false, direct.first, {}, {}, {}, 0});
    return;
  }
  for (std::uint32_t s = 0; s < direct.sends; ++s)
    direct_steps_.push_back(
        {Kind::kSend, false, direct.first + direct.receives + s, {}, {}, {}, 0});
  for (std::uint32_t r = 0; r < direct.receives; ++r)
    direct_steps_.push_back(
        {Kind::kReceive, r + 1 == direct.receives, direct.first + r, {}, {}, {}, 0});
}

// Appends the round's local steps to direct_steps_; false where one needs more (a copy between
// types, a reduction of a derived type or out of order).
bool ScheduleRun::resolve_direct_locals(const Round& round) {
  using Kind = DirectStep::Kind;
  for (const LocalStep& step : round.local) {
    if (step.from.count == 0 && step.to.count == 0) continue;
    const TypeLayout& from = *buffer(step.from.slot).layout;
    const TypeLayout& to = *buffer(step.to.slot).layout;
    if (step.kind == LocalKind::kCopy) {
      if (from.type != to.type || !from.plain) return false;
      if (address(step.from) != address(step.to))
        direct_steps_.push_back({Kind::kCopy, false, 0, to.type, address(step.from),
                                 address(step.to), step.from.count * from.extent});
    } else {
      if (!to.predefined || (step.kind == LocalKind::kReduceRight && !commutative_)) return false;
      direct_steps_.push_back(
          {Kind::kReduce, false, 0, to.type, address(step.from), address(step.to), step.to.count});
    }
  }
  return true;
}

bool ScheduleRun::replay_direct(int tag) {
  if (!replays_directly_ || !replays_in_mpi(engine_, *channel_, direct_receives_, false))
    return false;
  const int mpi_tag = channel_->mpi_tag(tag);
  const MPI_Comm base = channel_->base();
  int first_failure = MPI_SUCCESS;  // of the round's receives so far
  for (const DirectStep& step : direct_steps_) {
    switch (step.kind) {
      case DirectStep::Kind::kSend:
        send_endpoint(engine_, endpoints_[step.endpoint], mpi_tag, base);
        break;
      case DirectStep::Kind::kReceive: {
        const int rc = receive_endpoint(engine_, endpoints_[step.endpoint], mpi_tag, base);
        if (first_failure == MPI_SUCCESS) first_failure = rc;
        if (step.ends_round) p2p::check_mpi(first_failure, "receive");
        break;
      }
      case DirectStep::Kind::kSendReceive:
        send_receive(endpoints_[step.endpoint + 1], endpoints_[step.endpoint], mpi_tag);
        break;
      case DirectStep::Kind::kCopy:
        std::memmove(step.to, step.from, static_cast<std::size_t>(step.count));
        break;
      case DirectStep::Kind::kReduce:
        reduce_in_order(step.from, step.to, step.count, step.type, true);
        break;
    }
  }
  return true;
}

std::optional<SingleTransfer> ScheduleRun::single_transfer() const noexcept {
  const auto& rounds = schedule_.rounds();
  if (rounds.size() != 1 || direct_rounds_.size() != 1 || !rounds[0].local.empty())
    return std::nullopt;
  const DirectRound& direct = direct_rounds_[0];
  if (!direct.direct || direct.receives + direct.sends != 1) return std::nullopt;
  const bool send = direct.sends == 1;
  const Transfer& transfer = send ? rounds[0].sends[0] : rounds[0].receives[0];
  if (transfer.block.slot != kInput && transfer.block.slot != kOutput) return std::nullopt;
  return SingleTransfer{endpoints_[direct.first], send};
}

// Whether the round's transfers all go one way and are short enough not to wait for their peers
// in Open MPI's shared memory (its eager limit): longer ones are better posted together, where
// their copies overlap (2-core VM, a linear scatter's root sending 32 KiB-256 KiB blocks one by
// one: 1.7-2.4x native at 32 KiB and 0.8-1.7x at 256 KiB on 4-8 ranks, against 1.0x posted
// together; only at P = 3, where posted together reads 0.6-1.5x by which ranks share a core,
// did one by one read a steady 1.0x).
bool ScheduleRun::one_way_and_short(const Round& round) const {
  if (!round.receives.empty() && !round.sends.empty()) return false;
  constexpr std::int64_t kShortBytes = 4096;
  const auto is_short = [&](const Transfer& t) {
    return t.block.count * buffer(t.block.slot).layout->size <= kShortBytes;
  };
  return std::all_of(round.receives.begin(), round.receives.end(), is_short) &&
         std::all_of(round.sends.begin(), round.sends.end(), is_short);
}

void ScheduleRun::start_round(const Round& round) {
  posted_requests_ = posted_receives_ = 0;
  engine_requests_.clear();
  const p2p::Channel& channel = *channel_;
  for (const Transfer& t : round.receives) {
    void* into = address(t.block);
    const int count = mpi_count(t.block.count);
    const MPI_Datatype type = buffer(t.block.slot).layout->type;
    if (p2p::post_direct_receive(channel, into, count, type, t.peer, tag_,
                                 &requests_[posted_requests_]))
      ++posted_requests_;
    else
      engine_requests_.push_back(p2p::irecv(engine_, channel_, into, count, type, t.peer, tag_));
  }
  posted_receives_ = posted_requests_;
  // A round that waits for receives has its peers running: their sends complete meanwhile,
  // and copying them aside would only cost (all-to-all at 4 KiB: 1.2-1.4x native's time on the
  // 2-core VM detached, 1.01-1.03x not).
  const bool detach = round.receives.empty();
  for (const Transfer& t : round.sends)
    if (!(detach && send_detached(t)))
      requests_[posted_requests_++] =
          p2p::post_send(channel, address(t.block), mpi_count(t.block.count),
                         buffer(t.block.slot).layout->type, t.peer, tag_, p2p::SendMode::kStandard);
  posted_ = true;
}

// A send of a size the engine detaches, from a contiguous buffer, copied and let go of: the
// round does not wait for it. False, having sent nothing, otherwise.
bool ScheduleRun::send_detached(const Transfer& t) {
  const TypeLayout& layout = *buffer(t.block.slot).layout;
  const std::int64_t bytes = t.block.count * layout.size;
  if (!detaches(layout, bytes)) return false;
  const p2p::Channel& channel = *channel_;
  return engine_.detached_sends().post(address(t.block), bytes, mpi_count(t.block.count),
                                       layout.type, channel.select(t.peer), channel.mpi_tag(tag_),
                                       channel.base());
}

// Whether a send of `bytes` in `layout` is one the engine copies and lets go of.
bool ScheduleRun::detaches(const TypeLayout& layout, std::int64_t bytes) const {
  return layout.plain && engine_.detached_sends().wanted(bytes);
}

bool ScheduleRun::round_complete(bool blocking) {
  return mpi_requests_complete(blocking) && engine_requests_complete(blocking);
}

// One MPI_Waitall (blocking: p2p::wait_all_mpi, which polls while others need progress) or
// MPI_Testall for the whole round.
bool ScheduleRun::mpi_requests_complete(bool blocking) {
  if (posted_requests_ == 0) return true;
  int rc = MPI_SUCCESS;
  if (blocking) {
    rc = p2p::wait_all_mpi(engine_, posted_requests_, requests_, statuses_);
  } else {
    int done = 0;
    {
      [[maybe_unused]] const p2p::CompletionErrorsReturned errors_returned;
      rc = p2p::test_all(posted_requests_, requests_, &done, statuses_);
    }
    if (rc == MPI_SUCCESS && !done) return false;
  }
  if (rc == MPI_ERR_IN_STATUS)
    for (int i = 0; i < posted_requests_; ++i)
      if (statuses_[i].MPI_ERROR != MPI_SUCCESS && statuses_[i].MPI_ERROR != MPI_ERR_PENDING)
        p2p::check_mpi(statuses_[i].MPI_ERROR, "receive");
  p2p::check_mpi(rc, "MPI_Waitall");
  posted_requests_ = 0;
  return true;
}

bool ScheduleRun::engine_requests_complete(bool blocking) {
  p2p::Status status;
  while (!engine_requests_.empty()) {
    p2p::Request& last = engine_requests_.back();
    if (!(blocking ? last.wait(engine_, status) : last.test(engine_, status))) return false;
    engine_requests_.pop_back();
  }
  return true;
}

void ScheduleRun::run_local(const LocalStep& step) {
  if (step.from.count == 0 && step.to.count == 0) return;
  if (step.kind == LocalKind::kCopy)
    copy(step.from, step.to);
  else
    reduce(step);
}

void ScheduleRun::run_locals(const Round& round) {
  for (const LocalStep& step : round.local) run_local(step);
}

// The local steps of a round whose transfers are in flight (Round::local_first). One that fails
// (a neighborhood's message to its own process, too long) waits for the round's transfers before
// its error goes up: the peers' messages of the round come anyway, and a cancelled receive would
// leave them unmatched under the internal tag, for the collective that takes it 192 later.
void ScheduleRun::run_locals_in_flight(const Round& round) {
  try {
    run_locals(round);
  } catch (...) {
    try {
      round_complete(true);
    } catch (...) {  // the first failure is the one to report; the destructor abandons the rest
    }
    throw;
  }
}

// Error(kTruncate) where `from` holds more bytes than `to` has room for: a collective's members
// that disagree on a block's length, or a neighborhood's message to its own process (which MPI
// would truncate, and Open MPI 4.1 truncates without saying so).
void ScheduleRun::copy(const Block& from, const Block& to) {
  const TypeLayout& source = *buffer(from.slot).layout;
  const TypeLayout& target = *buffer(to.slot).layout;
  if (from.count * source.size > to.count * target.size) [[unlikely]]
    throw_truncated_copy(from.count * source.size, to.count * target.size);
  typed_copy(address(from), source, address(to), target, from.count, to.count);
}

// Elements only, never the gaps between them (they belong to the user); through MPI_Pack and
// MPI_Unpack (packed_copy) unless both sides are the same plain type, the common case, which
// stays small enough to inline.
void ScheduleRun::typed_copy(const std::byte* in, const TypeLayout& source, std::byte* out,
                             const TypeLayout& target, std::int64_t in_count,
                             std::int64_t out_count) {
  if (source.type != target.type || !source.plain) [[unlikely]] {
    packed_copy(in, source, out, target, in_count, out_count);
    return;
  }
  if (in != out) std::memmove(out, in, static_cast<std::size_t>(in_count * source.extent));
}

// Packed bytes (an MPI_BYTE side) are packed into or unpacked from directly. A copy of no bytes
// (elements of an empty type) does nothing: MPI_Pack refuses the null buffers it may have.
void ScheduleRun::packed_copy(const std::byte* in, const TypeLayout& source, std::byte* out,
                              const TypeLayout& target, std::int64_t in_count,
                              std::int64_t out_count) {
  if (in_count * source.size == 0) return;
  const MPI_Comm comm = channel_->base();
  if (target.type == MPI_BYTE) {
    pack(in, source.type, in_count, out, out_count, comm);
    return;
  }
  if (source.type == MPI_BYTE) {
    unpack(in, in_count, out, target.type, out_count, comm);
    return;
  }
  int bytes = 0;
  p2p::check_mpi(MPI_Pack_size(mpi_count(in_count), source.type, comm, &bytes), "MPI_Pack_size");
  std::vector<std::byte> packed(static_cast<std::size_t>(bytes));
  pack(in, source.type, in_count, packed.data(), bytes, comm);
  unpack(packed.data(), bytes, out, target.type, out_count, comm);
}

// to = from op to: by scomm's own loops where the type is `predefined` and they serve the
// operation, else by MPI_Reduce_local.
void ScheduleRun::reduce_in_order(const std::byte* from, std::byte* to, std::int64_t count,
                                  MPI_Datatype type, bool predefined) {
  if (predefined && reduce_predefined(op_, type, from, to, count)) return;
  p2p::check_mpi(MPI_Reduce_local(from, to, mpi_count(count), type, op_), "MPI_Reduce_local");
}

void ScheduleRun::reduce(const LocalStep& step) {
  const TypeLayout& layout = *buffer(step.to.slot).layout;
  const std::int64_t count = step.to.count;
  std::byte* to = address(step.to);
  if (step.kind == LocalKind::kReduceLeft || commutative_) {
    reduce_in_order(address(step.from), to, count, layout.type, layout.predefined);
    return;
  }
  // to = to op from, with MPI_Reduce_local's (in op inout): reduce into a copy of `from`, then
  // copy the result back.
  std::vector<std::byte> operand(static_cast<std::size_t>(layout.span(count)));
  std::byte* copy_of_from = displaced(operand.data(), -layout.true_lb);
  typed_copy(address(step.from), layout, copy_of_from, layout, count, count);
  p2p::check_mpi(MPI_Reduce_local(to, copy_of_from, mpi_count(count), layout.type, op_),
                 "MPI_Reduce_local");
  typed_copy(copy_of_from, layout, to, layout, count, count);
}

}  // namespace scomm::coll
