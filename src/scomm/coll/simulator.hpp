// Runs a collective's schedules on a cost model instead of a network: every rank's rounds, event
// by event, without MPI and at any size (a million ranks in seconds). Reports the critical path
// time, the messages and bytes (per level of a hierarchical model), and what makes a schedule
// wrong: a receive no send matches (deadlock), a send no receive takes, a receive whose size
// differs from its send's.
//
// The executor's semantics (executor.hpp): a rank starts a round when the previous one's local
// steps are done; the round's sends leave at its start, one after the other through the rank's
// port (cost_model.hpp); the round ends when its receives have arrived and its sends have left,
// then its local steps run (copy and reduction cost per byte). One tag per collective and MPI's
// non-overtaking rule: the k-th receive a rank posts from a peer matches the k-th message that
// peer sent it. A send never waits for its receive; a message above the link's eager limit
// moves only once its receive is posted (cost_model.hpp), so it reaches a late receiver late.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "scomm/coll/cost_model.hpp"
#include "scomm/coll/schedule.hpp"
#include "scomm/coll/shape.hpp"

namespace scomm::coll {

// The schedule of one rank (shape.rank) of the collective.
using ScheduleBuilder = std::function<Schedule(const Shape&)>;

// Bytes per element of the two types a schedule knows.
struct ElementSizes {
  std::int64_t send = 1;  // TypeId::kSend (the input's type)
  std::int64_t recv = 1;  // TypeId::kRecv (the output's type)
};

struct Problem {
  enum class Kind : std::uint8_t {
    kDeadlock,       // `rank` waits in `round` for a message from `peer` that never comes
    kUnmatchedSend,  // `rank` sent `peer` a message of `send_bytes` that no receive takes
    kSizeMismatch,   // `rank`'s receive in `round` from `peer` expects `recv_bytes`, got
                     // `send_bytes`
    kBadPeer,        // `rank` names `peer`, not a rank of the communicator
  };
  Kind kind = Kind::kDeadlock;
  int rank = 0;
  int peer = 0;
  int round = 0;
  std::int64_t send_bytes = 0;
  std::int64_t recv_bytes = 0;

  std::string describe() const;
};

struct Simulation {
  std::vector<double> completion;  // per rank: when its last round's local steps end
  double time = 0;                 // the largest completion: the critical path
  int last_rank = 0;               // a rank that completes at `time`
  std::int64_t messages = 0;
  std::int64_t bytes = 0;
  std::int64_t critical_messages = 0;                             // messages on the critical path
  int max_rounds = 0;                                             // the most rounds of any rank
  std::vector<std::int64_t> messages_per_level, bytes_per_level;  // by CostModel::level
  // The critical path's messages by level (levels past the sixth are counted with it).
  std::vector<std::int64_t> critical_messages_per_level;
  std::vector<Problem> problems;   // the first kMaxProblems
  std::int64_t problem_count = 0;  // all of them
  static constexpr std::size_t kMaxProblems = 32;

  bool ok() const noexcept { return problem_count == 0; }
  std::string describe_problems() const;
};

// Simulates the collective of `size` ranks rooted at `root`, `calls` times back to back: each
// rank starts the next call as soon as it has finished the last, as a loop of blocking calls does
// (so a root's next sends may leave before its last call's messages have arrived). The result
// covers them all. Memory: a compact encoding of the schedules of the ranks in flight, some tens
// of bytes per round.
Simulation simulate(const ScheduleBuilder& builder, int size, int root, const CostModel& model,
                    ElementSizes sizes = {}, int calls = 1);

}  // namespace scomm::coll
