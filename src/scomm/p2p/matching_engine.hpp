// Software matching for the receives MPI cannot match by tag alone. A receive with MPI_ANY_TAG
// cannot be posted on the base communicator (it would match every context), so it waits here
// while the engine takes arrived messages off MPI with MPI_Improbe and files each under its
// channel (found through the context table) or, for a context not live yet, as an orphan adopted
// when its communicator is created. Messages stay inside MPI (MPI_Message handles) until a
// receive takes them with MPI_Imrecv, in the receive's own datatype and buffer (where the MPI
// has matched probes: probed_message.hpp).
//
// Order: a receive posted while its channel has engine receives waiting waits behind them, and
// every receive first looks at the channel's taken messages, so MPI's non-overtaking rule holds
// between direct and engine receives.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "scomm/context/base_placement.hpp"
#include "scomm/context/context_table.hpp"
#include "scomm/context/tag_layout.hpp"
#include "scomm/p2p/channel.hpp"
#include "scomm/p2p/detached_sends.hpp"

namespace scomm::p2p {

// A receive the engine completes: matched against taken messages, then received with
// MPI_Imrecv into `request` (or copied in at once where MPI has no matched probes).
class EngineReceive {
 public:
  EngineReceive(void* buffer, int count, MPI_Datatype type, int source, int tag)
      : buffer_(buffer), count_(count), type_(type), source_(source), tag_(tag) {}

  // source: the sender's base rank or MPI_ANY_SOURCE; tag: a user tag or MPI_ANY_TAG.
  bool matches(const Channel& channel, const MPI_Status& status) const noexcept;
  // Receives `message` into the buffer; one that does not fit is received aside and the
  // receive fails with truncation (MPI_Imrecv's own truncation error would go to a handler
  // scomm does not control in some MPIs).
  void take(ProbedMessage& message);
  bool matched() const noexcept { return matched_; }
  bool truncated() const noexcept { return truncated_.has_value(); }
  // The status of the message that did not fit (its source, tag and size).
  const MPI_Status& truncated_message() const noexcept { return *truncated_; }
  MPI_Request& request() noexcept { return request_; }
  // The status of a message already in the buffer (no MPI request left to complete).
  const std::optional<MPI_Status>& received() const noexcept { return received_; }

 private:
  void* buffer_;
  int count_;
  MPI_Datatype type_;
  int source_;
  int tag_;
  bool matched_ = false;
  std::optional<MPI_Status> truncated_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  std::optional<MPI_Status> received_;
};

class Operation;

class MatchingEngine {
 public:
  MatchingEngine(std::vector<MPI_Comm> bases, const context::TagLayout& layout,
                 const context::BasePlacement& placement,
                 std::unique_ptr<context::ContextTable<Channel>> table, const DetachLimits& detach);
  ~MatchingEngine();
  MatchingEngine(const MatchingEngine&) = delete;
  MatchingEngine& operator=(const MatchingEngine&) = delete;

  // A new live channel: found for its arriving messages from now on; adopts its orphans.
  void attach(Channel& channel);
  // Room for channels on the whole blocks of ids [first, first + count) that a run reserved for
  // local creation hands out (context::ContextTable::prepare).
  void prepare(context::ContextId first, context::ContextId count) {
    table_->prepare(first, count);
  }
  void detach(Channel& channel) noexcept;

  // Queues `receive` behind the channel's waiting receives (the caller has looked at the
  // taken messages first).
  void post(Channel& channel, EngineReceive& receive);
  void withdraw(Channel& channel, EngineReceive& receive) noexcept;
  // Takes the messages that have arrived off MPI on the base communicators where receives wait
  // here, and files them, until no receive waits on that base (or none has arrived). The
  // messages on other bases, and those that arrive after, stay with MPI's own matching.
  void pull();
  // Every arrived message of `channel`'s base (for a probe there). The other bases' messages
  // are left to progress_background(), which a probe's caller runs first: their receives do not
  // change its answer, and taking them on every probe made a poll with a receive waiting on
  // another base 1.9x MPI_Iprobe's time.
  void pull(const Channel& channel);
  // The status of the first taken message of `channel` a receive (source, tag) would match.
  const MPI_Status* peek(Channel& channel, int source, int tag) noexcept;
  // Removes that message from the channel and returns it.
  std::optional<ProbedMessage> take(Channel& channel, int source, int tag) noexcept;

  // Operations that advance whenever scomm waits (nonblocking collectives): MPI's progress rule
  // says a pending operation completes while its process waits for anything else, so every
  // blocking call polls them instead of blocking inside MPI while one is registered. The
  // receives waiting here count too: their messages stay in MPI until the engine takes them, and
  // a sender whose MPI hands a message over only once it is received (a rendezvous, MPICH's
  // messages to oneself) would otherwise wait for a process blocked inside MPI, forever.
  void add_background(Operation& operation) {
    background_.push_back(&operation);
    ++pending_;
  }
  void remove_background(Operation& operation) noexcept;
  bool has_background() const noexcept { return pending_ != 0; }
  // Whether background operations are registered (beside any waiting receive).
  bool has_operations() const noexcept { return !background_.empty(); }
  // Whether a receive waits here on `channel`'s base communicator: polls then take that base's
  // arrived messages off MPI.
  bool waits_on_base_of(const Channel& channel) const noexcept {
    return waiting_on_base_[static_cast<std::size_t>(base_of(channel))] != 0;
  }
  // Whether `operation` is the one registered operation and no receive waits here: waiting for
  // it alone, the process may block inside MPI as for a blocking call.
  bool background_is_only(const Operation& operation) const noexcept {
    return pending_ == 1 && background_.size() == 1 && background_.front() == &operation;
  }
  // Takes arrived messages for the waiting receives (without background operations, on one call
  // in kPullEvery), then advances every registered operation once; their failures stay with them
  // (reported when their own requests complete), and a failure to take messages is thrown by the
  // next pull().
  void progress_background() noexcept;

  // A message whose request was let go of (MPI_Request_free) while MPI may still be at work on
  // it, kept until MPI completes it. A receive holds its channel, and with it its context, so
  // that no later communicator of that context has a message land in it. A send is not freed in
  // MPI while active: MPICH 4.0's MPI_Mrecv of a message to oneself whose send request was freed
  // aborts the process, and the engine takes messages by matched probes. Each call first lets go
  // of those MPI has completed since. `cancelled`: MPI_Cancel was called on it already.
  void keep_released(MPI_Request request, ChannelPtr receive_channel, bool cancelled);
  // A receive of the engine let go of before a message matched it: it stays posted, as MPI keeps
  // a freed receive, takes the next message of `channel` it matches, and goes once received.
  void keep_released(std::unique_ptr<EngineReceive> receive, ChannelPtr channel);
  // Cancels and completes the receives still kept, letting go of their channels, and frees the
  // sends (before the runtime, which disposes of channels, goes).
  void finish_released() noexcept;

  // Takes every message that has arrived on the base communicators `bases` off MPI, each to its
  // channel or, for a context not live here, as an orphan (Runtime::settle_freed_blocks).
  void take_arrived_on(std::span<const int> bases);
  // Receives and drops the orphans of the contexts `freed` names: messages sent on communicators
  // freed here, which no receive may take any more.
  void discard_orphans_if(const std::function<bool(context::ContextId)>& freed);
  bool has_orphans() const noexcept { return !orphans_.empty(); }
  // Every arrived message of every base, as far as MPI lets them be taken (at the end: an error
  // leaves the rest to MPI).
  void take_all_arrived() noexcept;
  std::size_t orphans() const noexcept;
  std::size_t table_bytes() const noexcept { return table_->bytes(); }
  Channel* find(context::ContextId id) const noexcept { return table_->find(id); }
  // The collective sends this process has let go of (detached_sends.hpp).
  DetachedSends& detached_sends() noexcept { return detached_; }

 private:
  // Takes arrived messages of `base` until none is left, or, unless `drain`, none of its
  // receives waits here.
  void pull_base(int base, bool drain);
  // A receive waiting on `base` was matched or withdrawn.
  void unwait(int base) noexcept;
  void file(ProbedMessage message, int base);
  int base_of(const Channel& channel) const noexcept {
    return placement_.base_of(channel.context());
  }
  static std::deque<ProbedMessage>::iterator find_taken(Channel& channel, int source,
                                                        int tag) noexcept;
  void deliver(Channel& channel, ProbedMessage message);
  // Gives a channel the messages that arrived for its context before it was opened.
  void adopt_orphans(Channel& channel);

  std::vector<MPI_Comm> bases_;
  context::TagLayout layout_;
  context::BasePlacement placement_;
  // Receives posted here and not matched yet, by the base of their channel, and the bases where
  // some wait (in no order): those pull() takes messages from (MPICH has 128 bases).
  std::vector<unsigned> waiting_on_base_;
  std::vector<int> bases_waiting_;
  std::unique_ptr<context::ContextTable<Channel>> table_;
  std::unordered_map<context::ContextId, std::vector<ProbedMessage>> orphans_;
  std::vector<Operation*> background_;
  // Background operations and receives posted here, not matched yet, together: what every
  // blocking call asks first. The receives are pending_ - background_.size().
  std::size_t pending_ = 0;
  std::exception_ptr pull_failure_;  // of a pull in progress_background()
  // With no background operation, progress_background() takes arrived messages for the waiting
  // receives on one pass in kPullEvery: enough for a peer's send that needs one of them to
  // complete (a wait on such a receive takes them itself). Ping-pong on the world beside such a
  // receive on a duplicate, on the VM: 1.01-1.03x raw MPI's time, 1.04-1.06x pulling on every
  // pass (the duplicate's base alone; when all shared one base, 1.5x and 3.4x).
  static constexpr unsigned kPullEvery = 64;
  unsigned idle_passes_ = 0;
  DetachedSends detached_;
  struct Released {
    MPI_Request request;
    ChannelPtr receive_channel;  // none for a send
    bool cancelled;              // no second MPI_Cancel (PlainRequest::cancel)
  };
  std::vector<Released> released_;
  struct ReleasedReceive {
    std::unique_ptr<EngineReceive> receive;  // posted on `channel` until matched
    ChannelPtr channel;
  };
  std::vector<ReleasedReceive> released_receives_;
  // Lets go of the kept requests MPI has completed.
  void sweep_released() noexcept;
};

}  // namespace scomm::p2p
