// Runs every rank's schedule on symbolic values instead of bytes, to check what a collective
// computes (the cost-model simulator checks only that messages match); the coll and topo tests
// share it. An element's value is the list of (rank * kElementBase + element) contributions it
// holds, in combination order: a copy copies the list, a reduction concatenates the lists in the
// order the step names, so a result shows both which inputs reached it and in what order they
// were combined. Messages match as in the executor: per pair of ranks in posting order, sends
// eager. As in the executor, the input of an in-place reduction (and of a broadcast) is the
// output itself, and an absent buffer (an in-place side, a side that means nothing at this rank)
// has no elements, so any block of it is out of bounds.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
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
    std::vector<std::size_t> round(static_cast<std::size_t>(size_), 0);
    std::vector<bool> posted(static_cast<std::size_t>(size_), false);
    bool progress = true;
    while (progress) {
      progress = false;
      for (int r = 0; r < size_; ++r) {
        const auto& rounds = schedules_[r].rounds();
        if (round[r] >= rounds.size()) continue;
        const coll::Round& now = rounds[round[r]];
        if (!posted[r]) {
          for (const coll::Transfer& send : now.sends)
            queues_[{r, send.peer}].push_back(read(r, send.block));
          posted[r] = true;
          progress = true;
        }
        if (!receivable(r, now)) continue;
        for (const coll::Transfer& receive : now.receives) {
          auto& queue = queues_[{receive.peer, r}];
          write(r, receive.block, queue.front());
          queue.pop_front();
        }
        for (const coll::LocalStep& step : now.local) local(r, step);
        ++round[r];
        posted[r] = false;
        progress = true;
      }
    }
    for (int r = 0; r < size_; ++r)
      if (round[r] < schedules_[r].rounds().size())
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
    return b.temps[coll::Schedule::temp_index(s)];
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
  bool receivable(int rank, const coll::Round& round) {
    std::map<int, std::size_t> needed;
    for (const coll::Transfer& receive : round.receives) ++needed[receive.peer];
    for (const auto& [peer, count] : needed)
      if (queues_[{peer, rank}].size() < count) return false;
    return true;
  }

  int size_;
  std::vector<coll::Schedule> schedules_;
  std::vector<RankBuffers> buffers_;
  std::map<std::pair<int, int>, std::deque<Values>> queues_;
};

}  // namespace scomm::symbolic
