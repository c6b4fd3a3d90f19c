#include "scomm/coll/simulator.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <memory>
#include <unordered_map>
#include <utility>

namespace scomm::coll {
namespace {

// A rank's schedule, compactly: per round the sends, then the receives, each as (peer - rank,
// bytes), then the bytes copied and reduced, all as LEB128 varints (a million ranks of a
// 20-round schedule would otherwise hold gigabytes of vectors).
class Encoder {
 public:
  void unsigned_value(std::uint64_t v) {
    while (v >= 0x80) {
      bytes_.push_back(static_cast<std::uint8_t>(v | 0x80));
      v >>= 7;
    }
    bytes_.push_back(static_cast<std::uint8_t>(v));
  }
  void signed_value(std::int64_t v) {  // zigzag: small magnitudes stay short
    unsigned_value((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
  }
  void clear() { bytes_.clear(); }
  std::unique_ptr<std::uint8_t[]> copy() const {
    auto code = std::make_unique_for_overwrite<std::uint8_t[]>(bytes_.size());
    std::copy(bytes_.begin(), bytes_.end(), code.get());  // memcpy of an empty vector: UB
    return code;
  }

 private:
  std::vector<std::uint8_t> bytes_;
};

class Decoder {
 public:
  Decoder(const std::uint8_t* code, std::uint32_t at) : code_(code), at_(at) {}
  std::uint64_t unsigned_value() {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const std::uint8_t b = code_[at_++];
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (b < 0x80) return v;
    }
  }
  std::int64_t signed_value() {
    const std::uint64_t v = unsigned_value();
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  }
  std::uint32_t position() const noexcept { return at_; }

 private:
  const std::uint8_t* code_;
  std::uint32_t at_;
};

// The messages of a chain of dependencies, in all and per level of the cost model (levels past
// the last counted share its count).
struct Hops {
  static constexpr std::size_t kLevels = 6;
  std::int32_t total = 0;
  std::array<std::int32_t, kLevels> per_level{};

  Hops plus(int level) const noexcept {
    Hops h = *this;
    ++h.total;
    ++h.per_level[std::min(static_cast<std::size_t>(level), kLevels - 1)];
    return h;
  }
};

struct Message {
  int src = 0;
  int round = 0;  // the sender's
  std::int64_t bytes = 0;
  double arrival = 0;
  Hops hops;  // the critical chain to this message's arrival, this message included
  std::int32_t next = -1;
};

// Every rank's sent, not yet received messages, oldest first, as lists in one pool (a vector
// per rank would cost an allocation per rank).
class Inboxes {
 public:
  explicit Inboxes(int size)
      : head_(static_cast<std::size_t>(size), -1), tail_(static_cast<std::size_t>(size), -1) {}

  void push(int dst, Message m) {
    std::int32_t at = free_;
    if (at >= 0) {
      free_ = pool_[static_cast<std::size_t>(at)].next;
      pool_[static_cast<std::size_t>(at)] = m;
    } else {
      at = static_cast<std::int32_t>(pool_.size());
      pool_.push_back(m);
    }
    const auto d = static_cast<std::size_t>(dst);
    (tail_[d] >= 0 ? pool_[static_cast<std::size_t>(tail_[d])].next : head_[d]) = at;
    tail_[d] = at;
  }

  // Removes the oldest message from `src` to `dst` into `out`; false if there is none.
  bool take(int dst, int src, Message& out) {
    const auto d = static_cast<std::size_t>(dst);
    std::int32_t previous = -1;
    for (std::int32_t at = head_[d]; at >= 0; previous = at, at = node(at).next) {
      if (node(at).src != src) continue;
      out = node(at);
      (previous >= 0 ? node(previous).next : head_[d]) = out.next;
      if (tail_[d] == at) tail_[d] = previous;
      node(at).next = free_;
      free_ = at;
      return true;
    }
    return false;
  }

  template <typename Visit>
  void for_each(int dst, Visit&& visit) const {
    for (std::int32_t at = head_[static_cast<std::size_t>(dst)]; at >= 0;
         at = pool_[static_cast<std::size_t>(at)].next)
      visit(pool_[static_cast<std::size_t>(at)]);
  }

 private:
  Message& node(std::int32_t at) { return pool_[static_cast<std::size_t>(at)]; }

  std::vector<Message> pool_;
  std::int32_t free_ = -1;
  std::vector<std::int32_t> head_, tail_;
};

struct Arrival {
  double time = 0;
  double recv_overhead = 0;
  Hops hops;
};

struct RankState {
  std::unique_ptr<std::uint8_t[]> code;
  std::uint32_t cursor = 0;  // the next receive of the current round, then its local costs
  std::int32_t round = -1;   // -1: not started
  std::int32_t rounds = 0;
  std::int32_t pending = 0;    // receives of the round still unmatched
  std::int32_t awaiting = -1;  // the peer whose message it waits for
  Hops hops;
  bool done = false;
  double start = 0;      // of the current round
  double sends_end = 0;  // when the round's sends have left
  double port_free = 0;  // when the port takes the next message
};

// The ranks go round by round, in passes over a queue, each visit at most one round: close to
// the order of simulated time, so that the messages in flight stay those of a round or two
// (running a rank as far as it can go would let whole schedules of messages pile up).
class Simulator {
 public:
  Simulator(const ScheduleBuilder& builder, int size, int root, const CostModel& model,
            ElementSizes sizes, int calls)
      : builder_(builder),
        size_(size),
        root_(root),
        model_(model),
        sizes_(sizes),
        calls_(calls),
        ranks_(static_cast<std::size_t>(size)),
        inboxes_(size) {
    result_.completion.assign(ranks_.size(), 0.0);
    result_.messages_per_level.assign(static_cast<std::size_t>(model.levels()), 0);
    result_.bytes_per_level.assign(static_cast<std::size_t>(model.levels()), 0);
    result_.critical_messages_per_level.assign(static_cast<std::size_t>(model.levels()), 0);
  }

  Simulation run() {
    for (int r = 0; r < size_; ++r) ready_.push_back(r);
    while (!ready_.empty()) {
      const int r = ready_.front();
      ready_.pop_front();
      if (advance(r)) ready_.push_back(r);
    }
    report_leftovers();
    summarize();
    return std::move(result_);
  }

 private:
  RankState& state(int r) { return ranks_[static_cast<std::size_t>(r)]; }
  bool is_rank(int r) const noexcept { return r >= 0 && r < size_; }

  void problem(Problem p) {
    ++result_.problem_count;
    if (result_.problems.size() < Simulation::kMaxProblems) result_.problems.push_back(p);
  }

  std::int64_t slot_bytes(const Schedule& s, const Block& b) const {
    // A view's type is the binding's alone: its elements are priced as the receive type's.
    TypeId type = b.slot == kInput ? TypeId::kSend : TypeId::kRecv;
    if (s.is_temp(b.slot)) type = s.temps()[s.temp_index(b.slot)].type;
    if (type == TypeId::kByte) return b.count;
    return b.count * (type == TypeId::kSend ? sizes_.send : sizes_.recv);
  }

  void encode_transfers(const Schedule& s, int r, const std::vector<Transfer>& transfers) {
    encoder_.unsigned_value(transfers.size());
    for (const Transfer& t : transfers) {
      encoder_.signed_value(std::int64_t{t.peer} - r);
      encoder_.unsigned_value(static_cast<std::uint64_t>(slot_bytes(s, t.block)));
    }
  }

  void encode_rounds(const Schedule& s, int r) {
    for (const Round& round : s.rounds()) {
      encode_transfers(s, r, round.sends);
      encode_transfers(s, r, round.receives);
      std::uint64_t copied = 0, reduced = 0;
      for (const LocalStep& step : round.local)
        (step.kind == LocalKind::kCopy ? copied : reduced) +=
            static_cast<std::uint64_t>(slot_bytes(s, step.from));
      encoder_.unsigned_value(copied);
      encoder_.unsigned_value(reduced);
    }
  }

  void start(int r) {
    const Schedule s = builder_(Shape{r, size_, root_});
    encoder_.clear();
    for (int call = 0; call < calls_; ++call) encode_rounds(s, r);
    RankState& me = state(r);
    me.code = encoder_.copy();
    me.rounds = static_cast<std::int32_t>(s.rounds().size()) * calls_;
    me.round = 0;
    result_.max_rounds = std::max(result_.max_rounds, me.rounds);
  }

  // One visit: starts the rank or ends its current round, and begins the next round. True when
  // the rank has more to do, false when it is done or waits for a message.
  bool advance(int r) {
    RankState& me = state(r);
    if (me.round < 0) {
      start(r);
      return begin_round(r);
    }
    return match_receives(r) && finish_round(r);
  }

  // Sends the round's messages; false when the schedule has no rounds left.
  bool begin_round(int r) {
    RankState& me = state(r);
    if (me.round == me.rounds) {
      me.done = true;
      me.code.reset();
      result_.completion[static_cast<std::size_t>(r)] = me.start;
      return false;
    }
    Decoder in(me.code.get(), me.cursor);
    me.sends_end = me.start;
    for (auto n = in.unsigned_value(); n > 0; --n) {
      const auto peer = static_cast<int>(r + in.signed_value());
      send(r, peer, static_cast<std::int64_t>(in.unsigned_value()));
    }
    me.pending = static_cast<std::int32_t>(in.unsigned_value());
    me.cursor = in.position();
    return true;
  }

  void send(int r, int peer, std::int64_t bytes) {
    RankState& me = state(r);
    if (!is_rank(peer)) {
      problem({Problem::Kind::kBadPeer, r, peer, me.round, bytes, 0});
      return;
    }
    const Link link = model_.link(r, peer);
    const double leaves = std::max(me.start, me.port_free);
    const double busy = link.port_time(bytes);
    me.port_free = leaves + std::max(link.gap, busy);
    me.sends_end = std::max(me.sends_end, leaves + busy);
    const int level = model_.level(r, peer);
    inboxes_.push(peer,
                  {r, me.round, bytes, leaves + busy + link.latency, me.hops.plus(level), -1});
    ++result_.messages;
    result_.bytes += bytes;
    ++result_.messages_per_level[static_cast<std::size_t>(level)];
    result_.bytes_per_level[static_cast<std::size_t>(level)] += bytes;
    RankState& receiver = state(peer);
    if (receiver.awaiting == r) {
      receiver.awaiting = -1;
      ready_.push_back(peer);
    }
  }

  // Matches the round's receives in order; false (and the peer awaited) at the first whose
  // message has not been sent. What a waiting rank has matched is kept aside.
  bool match_receives(int r) {
    RankState& me = state(r);
    arrivals_.clear();
    if (const auto kept = partial_.find(r); kept != partial_.end()) {
      arrivals_.swap(kept->second);
      partial_.erase(kept);
    }
    for (; me.pending > 0; --me.pending) {
      Decoder in(me.code.get(), me.cursor);
      const auto peer = static_cast<int>(r + in.signed_value());
      const auto bytes = static_cast<std::int64_t>(in.unsigned_value());
      Message m;
      if (!is_rank(peer)) {
        problem({Problem::Kind::kBadPeer, r, peer, me.round, 0, bytes});
      } else if (inboxes_.take(r, peer, m)) {
        if (m.bytes != bytes)
          problem({Problem::Kind::kSizeMismatch, r, peer, me.round, m.bytes, bytes});
        const Link link = model_.link(peer, r);
        arrivals_.push_back({arrival(link, m, me.start), link.recv_overhead, m.hops});
      } else {
        me.awaiting = peer;
        if (!arrivals_.empty()) partial_[r] = arrivals_;
        return false;
      }
      me.cursor = in.position();
    }
    return true;
  }

  // When message `m` is in at a receiver whose round posted its receive at `posted`. A message
  // above the eager limit moves only once its receive is posted (the rendezvous): then no
  // sooner than the wire and its bytes after that. The sender is not charged the wait.
  static double arrival(const Link& link, const Message& m, double posted) noexcept {
    if (m.bytes <= link.eager_bytes) return m.arrival;
    return std::max(
        m.arrival, posted + link.latency + static_cast<double>(m.bytes) * link.rendezvous_per_byte);
  }

  // Ends the round (receives processed one at a time in arrival order, then the local steps)
  // and begins the next; false when none is left.
  bool finish_round(int r) {
    RankState& me = state(r);
    std::sort(arrivals_.begin(), arrivals_.end(),
              [](const Arrival& a, const Arrival& b) { return a.time < b.time; });
    double received = me.start;
    Hops received_hops = me.hops;
    for (const Arrival& a : arrivals_) {
      if (a.time >= received) received_hops = a.hops;
      received = std::max(received, a.time) + a.recv_overhead;
    }
    // On a tie the message chain is the critical path: it is the longer one.
    if (!arrivals_.empty() && received >= me.sends_end) me.hops = received_hops;
    Decoder in(me.code.get(), me.cursor);
    const LocalCost local = model_.local(r);
    const auto copied = static_cast<double>(in.unsigned_value());
    const auto reduced = static_cast<double>(in.unsigned_value());
    me.cursor = in.position();
    me.start = std::max(received, me.sends_end) + copied * local.copy_per_byte +
               reduced * local.reduce_per_byte;
    ++me.round;
    return begin_round(r);
  }

  void report_leftovers() {
    for (int r = 0; r < size_; ++r) {
      const RankState& me = state(r);
      if (!me.done) {
        Decoder in(me.code.get(), me.cursor);
        in.signed_value();  // the awaited peer, known already
        const auto bytes = static_cast<std::int64_t>(in.unsigned_value());
        problem({Problem::Kind::kDeadlock, r, me.awaiting, me.round, 0, bytes});
        result_.completion[static_cast<std::size_t>(r)] = me.start;
      }
      inboxes_.for_each(r, [&](const Message& m) {
        problem({Problem::Kind::kUnmatchedSend, m.src, r, m.round, m.bytes, 0});
      });
    }
  }

  void summarize() {
    // Of the ranks that end last, the one with the longest chain of messages.
    for (int r = 0; r < size_; ++r) {
      const double end = result_.completion[static_cast<std::size_t>(r)];
      if (end > result_.time ||
          (end == result_.time && state(r).hops.total > result_.critical_messages)) {
        result_.time = end;
        result_.last_rank = r;
        result_.critical_messages = state(r).hops.total;
      }
    }
    if (size_ == 0) return;
    const Hops& critical = state(result_.last_rank).hops;
    for (std::size_t l = 0; l < result_.critical_messages_per_level.size(); ++l)
      result_.critical_messages_per_level[l] = critical.per_level[std::min(l, Hops::kLevels - 1)];
  }

  const ScheduleBuilder& builder_;
  int size_, root_;
  const CostModel& model_;
  ElementSizes sizes_;
  int calls_;
  std::vector<RankState> ranks_;
  Inboxes inboxes_;
  std::deque<int> ready_;
  std::vector<Arrival> arrivals_;  // the visited rank's matched receives
  std::unordered_map<int, std::vector<Arrival>> partial_;
  Encoder encoder_;
  Simulation result_;
};

const char* kind_name(Problem::Kind kind) {
  switch (kind) {
    case Problem::Kind::kDeadlock:
      return "deadlock";
    case Problem::Kind::kUnmatchedSend:
      return "unmatched send";
    case Problem::Kind::kSizeMismatch:
      return "size mismatch";
    case Problem::Kind::kBadPeer:
      return "bad peer";
  }
  return "?";
}

}  // namespace

std::string Problem::describe() const {
  std::string text = std::string(kind_name(kind)) + ": rank " + std::to_string(rank) + " round " +
                     std::to_string(round) + " peer " + std::to_string(peer);
  if (kind == Kind::kDeadlock) return text + " (receive never matched)";
  return text + " sent " + std::to_string(send_bytes) + " B, receive " +
         std::to_string(recv_bytes) + " B";
}

std::string Simulation::describe_problems() const {
  std::string text;
  for (const Problem& p : problems) text += p.describe() + "\n";
  if (problem_count > static_cast<std::int64_t>(problems.size()))
    text += "... " + std::to_string(problem_count) + " problems in all\n";
  return text;
}

Simulation simulate(const ScheduleBuilder& builder, int size, int root, const CostModel& model,
                    ElementSizes sizes, int calls) {
  if (size < 1 || calls < 1) return {};
  return Simulator(builder, size, root, model, sizes, calls).run();
}

}  // namespace scomm::coll
