#include "scomm/p2p/matching_engine.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "scomm/p2p/mpi_check.hpp"
#include "scomm/p2p/request.hpp"

namespace scomm::p2p {

bool EngineReceive::matches(const Channel& channel, const MPI_Status& status) const noexcept {
  return (source_ == MPI_ANY_SOURCE || source_ == status.MPI_SOURCE) &&
         channel.tag_matches(tag_, status.MPI_TAG);
}

void EngineReceive::take(ProbedMessage& message) {
  matched_ = true;
  MPI_Count type_size = 0;  // a type of more than INT_MAX bytes has no int size
  MPI_Type_size_x(type_, &type_size);
  if (static_cast<MPI_Count>(bytes_of(message.status)) > count_ * type_size) {
    truncated_ = message.status;
    discard_probed(message);
    return;
  }
  receive_probed(message, buffer_, count_, type_, request_);
  if (request_ == MPI_REQUEST_NULL) received_ = message.status;
}

MatchingEngine::MatchingEngine(std::vector<MPI_Comm> bases, const context::TagLayout& layout,
                               const context::BasePlacement& placement,
                               std::unique_ptr<context::ContextTable<Channel>> table,
                               const DetachLimits& detach)
    : bases_(std::move(bases)),
      layout_(layout),
      placement_(placement),
      waiting_on_base_(bases_.size(), 0),
      table_(std::move(table)),
      detached_(detach) {
  bases_waiting_.reserve(bases_.size());  // post() then never allocates for it
}

MatchingEngine::~MatchingEngine() {
  // Messages nobody received (late messages of freed communicators) leave MPI's queues.
  discard_orphans_if([](context::ContextId) { return true; });
}

void MatchingEngine::keep_released(MPI_Request request, ChannelPtr receive_channel,
                                   bool cancelled) {
  sweep_released();
  released_.push_back({request, std::move(receive_channel), cancelled});
}

void MatchingEngine::keep_released(std::unique_ptr<EngineReceive> receive, ChannelPtr channel) {
  sweep_released();
  released_receives_.push_back({std::move(receive), std::move(channel)});
}

namespace {

bool completed(MPI_Request& request) noexcept {
  int done = 1;
  if (request != MPI_REQUEST_NULL) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  return done != 0;
}

}  // namespace

void MatchingEngine::sweep_released() noexcept {
  std::erase_if(released_, [](Released& kept) { return completed(kept.request); });
  std::erase_if(released_receives_, [](ReleasedReceive& kept) {
    return kept.receive->matched() && completed(kept.receive->request());
  });
}

void MatchingEngine::finish_released() noexcept {
  for (Released& kept : released_) {
    if (!kept.receive_channel) {
      MPI_Request_free(&kept.request);
      continue;
    }
    if (!kept.cancelled) MPI_Cancel(&kept.request);
    MPI_Wait(&kept.request, MPI_STATUS_IGNORE);
  }
  released_.clear();
  for (ReleasedReceive& kept : released_receives_) {
    if (kept.receive->matched())
      MPI_Wait(&kept.receive->request(), MPI_STATUS_IGNORE);
    else
      withdraw(*kept.channel, *kept.receive);
  }
  released_receives_.clear();
}

void MatchingEngine::attach(Channel& channel) {
  table_->insert(channel.context(), &channel);
  if (!orphans_.empty()) [[unlikely]]
    adopt_orphans(channel);
}

// Out of line: a local creation's flattened path (SCOMM_Comm_create_range) otherwise carried the
// queues' allocation and its stack frame on every call.
[[gnu::noinline]] void MatchingEngine::adopt_orphans(Channel& channel) {
  const auto it = orphans_.find(channel.context());
  if (it == orphans_.end()) return;
  for (ProbedMessage& m : it->second) channel.unexpected().push_back(std::move(m));
  orphans_.erase(it);
}

void MatchingEngine::detach(Channel& channel) noexcept {
  table_->erase(channel.context());
}

void MatchingEngine::post(Channel& channel, EngineReceive& receive) {
  channel.posted().push_back(&receive);
  const int base = base_of(channel);
  if (waiting_on_base_[static_cast<std::size_t>(base)]++ == 0) bases_waiting_.push_back(base);
  ++pending_;
}

void MatchingEngine::withdraw(Channel& channel, EngineReceive& receive) noexcept {
  if (!channel.has_posted()) return;
  auto& posted = channel.posted();
  const auto it = std::find(posted.begin(), posted.end(), &receive);
  if (it == posted.end()) return;
  posted.erase(it);
  unwait(base_of(channel));
}

void MatchingEngine::unwait(int base) noexcept {
  --pending_;
  if (--waiting_on_base_[static_cast<std::size_t>(base)] != 0) return;
  // Last for first: the order in which pull() visits the bases does not matter.
  *std::find(bases_waiting_.begin(), bases_waiting_.end(), base) = bases_waiting_.back();
  bases_waiting_.pop_back();
}

void MatchingEngine::pull() {
  if (pull_failure_) std::rethrow_exception(std::exchange(pull_failure_, nullptr));
  // By index: a pull that serves a base's last receive takes the base out of the list, moving
  // the last one into its place.
  for (std::size_t i = 0; i < bases_waiting_.size();) {
    const int base = bases_waiting_[i];
    pull_base(base, false);
    if (i < bases_waiting_.size() && bases_waiting_[i] == base) ++i;
  }
}

void MatchingEngine::pull(const Channel& channel) {
  if (pull_failure_) std::rethrow_exception(std::exchange(pull_failure_, nullptr));
  pull_base(base_of(channel), true);
}

void MatchingEngine::pull_base(int base, bool drain) {
  const auto b = static_cast<std::size_t>(base);
  while (drain || waiting_on_base_[b] != 0) {
    auto message = take_arrived(bases_[b]);
    if (!message) return;
    file(std::move(*message), base);
  }
}

void MatchingEngine::take_arrived_on(std::span<const int> bases) {
  if (pull_failure_) std::rethrow_exception(std::exchange(pull_failure_, nullptr));
  for (const int base : bases) pull_base(base, true);
}

void MatchingEngine::take_all_arrived() noexcept {
  for (std::size_t base = 0; base < bases_.size(); ++base) {
    try {
      pull_base(static_cast<int>(base), true);
    } catch (...) {  // this base's rest stays with MPI
    }
  }
}

void MatchingEngine::discard_orphans_if(const std::function<bool(context::ContextId)>& freed) {
  for (auto it = orphans_.begin(); it != orphans_.end();) {
    if (!freed(it->first)) {
      ++it;
      continue;
    }
    for (ProbedMessage& m : it->second) discard_probed(m);
    it = orphans_.erase(it);
  }
}

void MatchingEngine::file(ProbedMessage message, int base) {
  const context::ContextId id = placement_.id_at(base, layout_.prefix_of(message.status.MPI_TAG));
  if (Channel* channel = table_->find(id)) {
    deliver(*channel, std::move(message));
  } else {
    orphans_[id].push_back(std::move(message));
  }
}

void MatchingEngine::deliver(Channel& channel, ProbedMessage message) {
  if (!channel.has_posted()) {
    channel.unexpected().push_back(std::move(message));
    return;
  }
  auto& posted = channel.posted();
  const auto it = std::find_if(posted.begin(), posted.end(), [&](const EngineReceive* r) {
    return r->matches(channel, message.status);
  });
  if (it == posted.end()) {
    channel.unexpected().push_back(std::move(message));
    return;
  }
  EngineReceive* receive = *it;
  posted.erase(it);
  unwait(base_of(channel));
  receive->take(message);
}

std::deque<ProbedMessage>::iterator MatchingEngine::find_taken(Channel& channel, int source,
                                                               int tag) noexcept {
  auto& taken = channel.unexpected();
  return std::find_if(taken.begin(), taken.end(), [&](const ProbedMessage& m) {
    return (source == MPI_ANY_SOURCE || source == m.status.MPI_SOURCE) &&
           channel.tag_matches(tag, m.status.MPI_TAG);
  });
}

const MPI_Status* MatchingEngine::peek(Channel& channel, int source, int tag) noexcept {
  if (!channel.has_unexpected()) return nullptr;
  const auto it = find_taken(channel, source, tag);
  return it == channel.unexpected().end() ? nullptr : &it->status;
}

std::optional<ProbedMessage> MatchingEngine::take(Channel& channel, int source, int tag) noexcept {
  if (!channel.has_unexpected()) return std::nullopt;
  const auto it = find_taken(channel, source, tag);
  if (it == channel.unexpected().end()) return std::nullopt;
  ProbedMessage message = std::move(*it);
  channel.unexpected().erase(it);
  return message;
}

void MatchingEngine::remove_background(Operation& operation) noexcept {
  const auto removed = std::remove(background_.begin(), background_.end(), &operation);
  pending_ -= static_cast<std::size_t>(background_.end() - removed);
  background_.erase(removed, background_.end());
}

void MatchingEngine::progress_background() noexcept {
  if (pending_ > background_.size() && !pull_failure_ &&
      (!background_.empty() || ++idle_passes_ % kPullEvery == 0)) {  // receives wait here
    try {
      pull();
    } catch (...) {
      pull_failure_ = std::current_exception();
    }
  }
  // By index: an operation completing here never registers or removes others.
  for (std::size_t i = 0; i < background_.size(); ++i) {
    try {
      background_[i]->progress();
    } catch (...) {  // kept by the operation for its own request
    }
  }
}

std::size_t MatchingEngine::orphans() const noexcept {
  std::size_t n = 0;
  for (const auto& [id, messages] : orphans_) n += messages.size();
  return n;
}

}  // namespace scomm::p2p
