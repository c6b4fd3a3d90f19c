// Runs every rank's schedule on symbolic values instead of bytes, to check what a collective
// computes (the cost-model simulator checks only that messages match); the coll and topo tests
// share it. An element's value is the list of (rank * kElementBase + element) contributions it
// holds, in combination order: a copy copies the list, a reduction concatenates the lists in the
// order the step names, so a result shows both which inputs reached it and in what order they
// were combined. Messages match as in MPI: per pair of ranks in posting order. A send completes
// only once its receiver has taken it (MPI's weakest promise for a standard send, what a
// rendezvous gives), so a schedule that would wait forever for a long message fails here even
// at a few elements; eager sends only complete sooner. A round's transfers are posted together
// and the round ends when all have completed, except a one_by_one round's, which go one at a
// time in order (the executor's blocking calls for them). As in the executor, the input of an
// in-place reduction (and of a broadcast) is the output itself, and an absent buffer (an in-place
// side, a side that means nothing at this rank) has no elements, so any block of it is out of
// bounds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "scomm/coll/schedule.hpp"
#include "scomm/coll/simulator.hpp"

namespace scomm::symbolic {

using Value = std::vector<std::int64_t>;
using Values = std::vector<Value>;
inline constexpr std::int64_t kElementBase = 100000;

// Rank r's input element e: {r * kElementBase + e}; outputs start as given by `output`.
// With `input_is_output`, blocks of the input are blocks of the output (`input` is unused).
struct RankBuffers {
  Values input, output;
  std::vector<Values> views;  // the schedule's views (a w-form's blocks), set up by the test
  std::vector<Values> temps;
  bool input_is_output = false;
};

inline Value initial(int rank, std::int64_t element) {
  return {rank * kElementBase + element};
}

inline Values initial_block(int rank, std::int64_t count) {
  Values values;
  for (std::int64_t e = 0; e < count; ++e) values.push_back(initial(rank, e));
  return values;
}

// `count` elements no schedule has written.
inline Values undefined(std::int64_t count) {
  return Values(static_cast<std::size_t>(count), Value{-1});
}

// Element e of ranks first..last reduced in rank order (empty when last < first).
inline Value ranks_reduced(int first, int last, std::int64_t e) {
  Value value;
  for (int r = first; r <= last; ++r) value.push_back(r * kElementBase + e);
  return value;
}

class ValueSimulation {
 public:
  // Ranks' buffers before the collective; input_count and output_count elements each (output
  // elements start empty unless `setup` fills them).
  ValueSimulation(const coll::ScheduleBuilder& builder, int size, int root) : size_(size) {
    for (int r = 0; r < size; ++r) schedules_.push_back(builder(coll::Shape{r, size, root}));
    buffers_.resize(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r)
      for (const coll::TempBuffer& temp : schedules_[r].temps())
        buffers_[r].temps.emplace_back(static_cast<std::size_t>(temp.count));
  }

  RankBuffers& buffers(int rank) { return buffers_[static_cast<std::size_t>(rank)]; }

  // Runs to completion; throws std::runtime_error on a deadlock or a message left over.
  void run() {
    progress_.assign(static_cast<std::size_t>(size_), RankProgress{});
    for (bool moved = true; moved;) {
      moved = false;
      for (int r = 0; r < size_; ++r) moved = step(r) || moved;
    }
    for (int r = 0; r < size_; ++r)
      if (progress_[r].round < schedules_[r].rounds().size())
        throw std::runtime_error("rank " + std::to_string(r) + " waits forever");
    for (const auto& [pair, queue] : queues_)
      if (!queue.empty()) throw std::runtime_error("a message is left unreceived");
  }

  // Elements each rank receives in all (for "receives the data exactly once").
  std::int64_t received_elements(int rank) const {
    std::int64_t total = 0;
    for (const coll::Round& round : schedules_[rank].rounds())
      for (const coll::Transfer& receive : round.receives) total += receive.block.count;
    return total;
  }

 private:
  Values& slot(int rank, coll::Slot s) {
    RankBuffers& b = buffers(rank);
    if (s == coll::kInput) return b.input_is_output ? b.output : b.input;
    if (s == coll::kOutput) return b.output;
    const coll::Schedule& schedule = schedules_[static_cast<std::size_t>(rank)];
    if (schedule.is_view(s)) return b.views.at(s - coll::Schedule::view_slot(0));
    return b.temps[schedule.temp_index(s)];
  }
  Values read(int rank, const coll::Block& block) {
    Values& from = slot(rank, block.slot);
    if (block.offset + block.count > static_cast<std::int64_t>(from.size()))
      throw std::runtime_error("a read past a buffer's end");
    return Values(from.begin() + block.offset, from.begin() + block.offset + block.count);
  }
  void write(int rank, const coll::Block& block, const Values& values) {
    Values& to = slot(rank, block.slot);
    if (static_cast<std::int64_t>(values.size()) != block.count ||
        block.offset + block.count > static_cast<std::int64_t>(to.size()))
      throw std::runtime_error("a write of the wrong size or past a buffer's end");
    std::copy(values.begin(), values.end(), to.begin() + block.offset);
  }
  void local(int rank, const coll::LocalStep& step) {
    const Values from = read(rank, step.from);
    Values to = read(rank, step.to);
    for (std::size_t e = 0; e < from.size(); ++e) {
      if (step.kind == coll::LocalKind::kCopy) {
        to[e] = from[e];
      } else if (step.kind == coll::LocalKind::kReduceRight) {
        to[e].insert(to[e].end(), from[e].begin(), from[e].end());
      } else {
        to[e].insert(to[e].begin(), from[e].begin(), from[e].end());
      }
    }
    write(rank, step.to, to);
  }
  // A message on its way: its values, and whether its receiver has taken it (the send completes).
  struct Message {
    Values values;
    std::shared_ptr<bool> taken = std::make_shared<bool>(false);
  };
  // Where a rank is: its round, the transfers of it posted so far (all at once, or one at a time
  // for a one_by_one round), and which of them are done.
  struct RankProgress {
    std::size_t round = 0;
    std::size_t posted = 0;                   // transfers posted: receives first, then sends
    std::vector<bool> received;               // per receive of the round
    std::vector<std::shared_ptr<bool>> sent;  // per send posted: taken by its receiver
  };

  // Advances rank `r` as far as it can now; true when anything changed.
  bool step(int r) {
    RankProgress& at = progress_[r];
    const auto& rounds = schedules_[r].rounds();
    bool moved = false;
    while (at.round < rounds.size()) {
      const coll::Round& now = rounds[at.round];
      const std::size_t transfers = now.receives.size() + now.sends.size();
      if (at.posted == 0) at.received.assign(now.receives.size(), false);
      // Post the round's transfers: all, or, for a one-way one_by_one round (the executor runs
      // no other kind by blocking calls), the next once those before it are done.
      const bool in_order = now.one_by_one && (now.receives.empty() || now.sends.empty());
      while (at.posted < transfers && (!in_order || done(at, now, at.posted))) {
        if (at.posted >= now.receives.size()) {
          const coll::Transfer& send = now.sends[at.posted - now.receives.size()];
          Message message{read(r, send.block)};
          at.sent.push_back(message.taken);
          queues_[{r, send.peer}].push_back(std::move(message));
        }
        ++at.posted;
        moved = true;
      }
      moved = take_arrived(r, now, at) || moved;
      if (at.posted < transfers || !done(at, now, transfers)) return moved;
      for (const coll::LocalStep& step : now.local) local(r, step);
      at = RankProgress{.round = at.round + 1, .posted = 0, .received = {}, .sent = {}};
      moved = true;
    }
    return moved;
  }

  // Takes, in order per peer, the messages for the posted receives that have arrived.
  bool take_arrived(int r, const coll::Round& now, RankProgress& at) {
    bool moved = false;
    const std::size_t posted_receives = std::min(at.posted, now.receives.size());
    for (std::size_t i = 0; i < posted_receives; ++i) {
      if (at.received[i]) continue;
      const coll::Transfer& receive = now.receives[i];
      auto& queue = queues_[{receive.peer, r}];
      // An earlier receive from the same peer waiting takes the front first (MPI's order).
      bool earlier_waits = false;
      for (std::size_t j = 0; j < i; ++j)
        earlier_waits = earlier_waits || (!at.received[j] && now.receives[j].peer == receive.peer);
      if (queue.empty() || earlier_waits) continue;
      write(r, receive.block, queue.front().values);
      *queue.front().taken = true;
      queue.pop_front();
      at.received[i] = true;
      moved = true;
    }
    return moved;
  }

  // Whether the round's first `count` transfers (receives first) have completed.
  static bool done(const RankProgress& at, const coll::Round& now, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      const bool complete =
          i < now.receives.size() ? at.received[i] : *at.sent[i - now.receives.size()];
      if (!complete) return false;
    }
    return true;
  }

  int size_;
  std::vector<coll::Schedule> schedules_;
  std::vector<RankBuffers> buffers_;
  std::vector<RankProgress> progress_;
  std::map<std::pair<int, int>, std::deque<Message>> queues_;
};

}  // namespace scomm::symbolic
