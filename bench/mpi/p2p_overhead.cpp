// Point-to-point overhead against raw MPI on the same ranks: 8-byte ping-pong latency between
// ranks 0 and 1 and the message rate of windows of 64 nonblocking sends (completed by Waitall,
// windows of 8 and 64 by Waitsome, and of 64 by Waitany), on the world and on a reversed-world
// communicator (a regular map: its lookups must cost nothing measurable), and on the world while a
// receive of any source and tag waits on another communicator (scomm matches such a receive itself,
// polling for it in every call). Beside them a minimal library with checked integer request handles
// (HandleFloor). And the poll of a process waiting for work: a probe of any source and tag with
// nothing to find. The variants alternate repetition by repetition, each first by turns, so drift
// hits all alike.
#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "experiments.hpp"
#include "scomm.h"

namespace scomm::bench {
namespace {

constexpr int kWindow = 64;

// Each API below offers send, recv, isend, irecv (into a window of requests), waitall, waitsome,
// waitany and a probe of any source and tag, bound to one communicator. The measured loops call
// them directly (templates, not std::function), so that no wrapper's cost is added alike to all
// three and dilutes their ratios.

// MPI itself: the baseline.
class MpiApi {
 public:
  explicit MpiApi(MPI_Comm comm) : comm_(comm) {}
  void send(const void* b, int to) { MPI_Send(b, 1, MPI_DOUBLE, to, 1, comm_); }
  void recv(void* b, int from) { MPI_Recv(b, 1, MPI_DOUBLE, from, 1, comm_, MPI_STATUS_IGNORE); }
  void isend(const void* b, int to) {
    MPI_Isend(b, 1, MPI_DOUBLE, to, 1, comm_, &requests_[count_++]);
  }
  void irecv(void* b, int from) {
    MPI_Irecv(b, 1, MPI_DOUBLE, from, 1, comm_, &requests_[count_++]);
  }
  void waitall() {
    MPI_Waitall(count_, requests_.data(), MPI_STATUSES_IGNORE);
    count_ = 0;
  }
  void waitsome() {
    for (int done = 0; done != MPI_UNDEFINED;)
      MPI_Waitsome(count_, requests_.data(), &done, indices_.data(), MPI_STATUSES_IGNORE);
    count_ = 0;
  }
  void waitany() {
    for (int index = 0; index != MPI_UNDEFINED;)
      MPI_Waitany(count_, requests_.data(), &index, MPI_STATUS_IGNORE);
    count_ = 0;
  }
  int probe_any() {
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE);
    return flag;
  }

 private:
  MPI_Comm comm_;
  std::array<MPI_Request, kWindow> requests_{};
  std::array<int, kWindow> indices_{};
  int count_ = 0;
};

class ScommApi {
 public:
  explicit ScommApi(SCOMM_Comm comm) : comm_(comm) {}
  void send(const void* b, int to) { SCOMM_Send(b, 1, MPI_DOUBLE, to, 1, comm_); }
  void recv(void* b, int from) {
    SCOMM_Recv(b, 1, MPI_DOUBLE, from, 1, comm_, SCOMM_STATUS_IGNORE);
  }
  void isend(const void* b, int to) {
    SCOMM_Isend(b, 1, MPI_DOUBLE, to, 1, comm_, &requests_[count_++]);
  }
  void irecv(void* b, int from) {
    SCOMM_Irecv(b, 1, MPI_DOUBLE, from, 1, comm_, &requests_[count_++]);
  }
  void waitall() {
    SCOMM_Waitall(count_, requests_.data(), SCOMM_STATUSES_IGNORE);
    count_ = 0;
  }
  void waitsome() {
    for (int done = 0; done != MPI_UNDEFINED;)
      SCOMM_Waitsome(count_, requests_.data(), &done, indices_.data(), SCOMM_STATUSES_IGNORE);
    count_ = 0;
  }
  void waitany() {
    for (int index = 0; index != MPI_UNDEFINED;)
      SCOMM_Waitany(count_, requests_.data(), &index, SCOMM_STATUS_IGNORE);
    count_ = 0;
  }
  int probe_any() {
    int flag = 0;
    SCOMM_Iprobe(SCOMM_ANY_SOURCE, SCOMM_ANY_TAG, comm_, &flag, SCOMM_STATUS_IGNORE);
    return flag;
  }

 private:
  SCOMM_Comm comm_;
  std::array<SCOMM_Request, kWindow> requests_{};
  std::array<int, kWindow> indices_{};
  int count_ = 0;
};

// A minimal library that hands out checked integer request handles as scomm's C API does
// (a stale or made-up handle is an error, never a crash): a fixed array of request slots with a
// generation each, the communicator handle, rank and tag checked, and nothing else -- no context
// in the tag, no rank map, no matching engine. Not scomm: the yardstick for scomm's overhead.
class HandleFloor {
 public:
  explicit HandleFloor(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_size(comm, &size_);
    for (int i = 0; i < kSlots; ++i) free_[i] = kSlots - 1 - i;
  }
  [[gnu::noinline]] int send(const void* b, int to, int c) {
    if (!valid(c, to)) return MPI_ERR_ARG;
    return MPI_Send(b, 1, MPI_DOUBLE, to, 1, comm_);
  }
  [[gnu::noinline]] int recv(void* b, int from, int c) {
    if (!valid(c, from)) return MPI_ERR_ARG;
    return MPI_Recv(b, 1, MPI_DOUBLE, from, 1, comm_, MPI_STATUS_IGNORE);
  }
  [[gnu::noinline]] int isend(const void* b, int to, int c, int* request) {
    if (!valid(c, to) || free_count_ == 0) return MPI_ERR_ARG;
    const int slot = take(request);
    return MPI_Isend(b, 1, MPI_DOUBLE, to, 1, comm_, &mpi_[slot]);
  }
  [[gnu::noinline]] int irecv(void* b, int from, int c, int* request) {
    if (!valid(c, from) || free_count_ == 0) return MPI_ERR_ARG;
    const int slot = take(request);
    return MPI_Irecv(b, 1, MPI_DOUBLE, from, 1, comm_, &mpi_[slot]);
  }
  [[gnu::noinline]] int waitall(int n, int* requests) {
    for (int i = 0; i < n; ++i) {
      const int slot = requests[i] & (kSlots - 1);
      if (requests[i] != handle(slot)) return MPI_ERR_REQUEST;
      batch_[i] = mpi_[slot];
    }
    const int rc = MPI_Waitall(n, batch_.data(), MPI_STATUSES_IGNORE);
    for (int i = 0; i < n; ++i) {
      const int slot = requests[i] & (kSlots - 1);
      ++generation_[slot];
      free_[free_count_++] = slot;
      requests[i] = 0;
    }
    return rc;
  }

 private:
  static constexpr int kSlots = 1024, kComm = 1;
  bool valid(int c, int peer) const {
    return c == kComm && static_cast<unsigned>(peer) < static_cast<unsigned>(size_);
  }
  int handle(int slot) const { return (generation_[slot] << 10) | slot; }
  int take(int* request) {
    const int slot = free_[--free_count_];
    *request = handle(slot);
    return slot;
  }
  MPI_Comm comm_;
  int size_ = 0;
  std::array<MPI_Request, kSlots> mpi_{}, batch_{};
  std::array<int, kSlots> generation_{}, free_{};
  int free_count_ = kSlots;
};

// The floor behind the same calls.
class FloorApi {
 public:
  explicit FloorApi(HandleFloor& floor) : floor_(floor) {}
  void send(const void* b, int to) { floor_.send(b, to, kComm); }
  void recv(void* b, int from) { floor_.recv(b, from, kComm); }
  void isend(const void* b, int to) { floor_.isend(b, to, kComm, &requests_[count_++]); }
  void irecv(void* b, int from) { floor_.irecv(b, from, kComm, &requests_[count_++]); }
  void waitall() {
    floor_.waitall(count_, requests_.data());
    count_ = 0;
  }

 private:
  static constexpr int kComm = 1;
  HandleFloor& floor_;
  std::array<int, kWindow> requests_{};
  int count_ = 0;
};

// A receive of any source and tag, never matched, posted on a duplicate of the world under MPI
// and under scomm while it lives: MPI keeps it in its posted-receive queue, scomm in its matching
// engine, which every scomm call then polls.
class WaitingReceives {
 public:
  WaitingReceives() {
    MPI_Comm_dup(MPI_COMM_WORLD, &mpi_comm_);
    SCOMM_Comm_dup(SCOMM_COMM_WORLD, &scomm_comm_);
    MPI_Irecv(&mpi_buffer_, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, mpi_comm_, &mpi_request_);
    SCOMM_Irecv(&scomm_buffer_, 1, MPI_DOUBLE, SCOMM_ANY_SOURCE, SCOMM_ANY_TAG, scomm_comm_,
                &scomm_request_);
  }
  ~WaitingReceives() {
    MPI_Cancel(&mpi_request_);
    MPI_Wait(&mpi_request_, MPI_STATUS_IGNORE);
    SCOMM_Cancel(&scomm_request_);
    SCOMM_Wait(&scomm_request_, SCOMM_STATUS_IGNORE);
    SCOMM_Comm_free(&scomm_comm_);
    MPI_Comm_free(&mpi_comm_);
  }
  WaitingReceives(const WaitingReceives&) = delete;
  WaitingReceives& operator=(const WaitingReceives&) = delete;

 private:
  MPI_Comm mpi_comm_ = MPI_COMM_NULL;
  SCOMM_Comm scomm_comm_ = SCOMM_COMM_NULL;
  MPI_Request mpi_request_ = MPI_REQUEST_NULL;
  SCOMM_Request scomm_request_ = SCOMM_REQUEST_NULL;
  double mpi_buffer_ = 0, scomm_buffer_ = 0;
};

// Ranks a and b of the communicator ping-pong.
template <typename Api>
void ping_pong(Api& api, int me, int a, int b) {
  double x = 1.0;
  if (me == a) {
    api.send(&x, b);
    api.recv(&x, b);
  } else if (me == b) {
    api.recv(&x, a);
    api.send(&x, a);
  }
}

// How a window's requests complete: one Waitall, or Waitsome or Waitany until none is active; or
// no message at all, a probe that finds none.
enum class Completion { kWaitall, kWaitsome, kWaitany, kProbeOnly };

// a sends a window of messages to b, b acknowledges.
template <Completion how, typename Api>
void window(Api& api, std::span<double> buffer, int me, int a, int b) {
  const auto complete = [&api] {
    if constexpr (how == Completion::kWaitall)
      api.waitall();
    else if constexpr (how == Completion::kWaitsome)
      api.waitsome();
    else
      api.waitany();
  };
  double ack = 0;
  if (me == a) {
    for (double& x : buffer) api.isend(&x, b);
    complete();
    api.recv(&ack, b);
  } else if (me == b) {
    for (double& x : buffer) api.irecv(&x, a);
    complete();
    api.send(&ack, a);
  }
}

// The two ranks that talk, as ranks of the communicator measured, and this process's rank there.
struct Pair {
  int me, a, b;
};

// What one row measures: ping-pongs (messages 1), or windows of `messages` completed `how`.
struct Measurement {
  const char* name;
  int messages;
  Completion how;
};

template <typename Api>
constexpr bool kHasSomeAndAny = requires(Api& api) {
  api.waitsome();
  api.waitany();
};
template <typename Api>
constexpr bool kHasProbe = requires(Api& api) {
  api.probe_any();
};

// One repetition of a measurement: nanoseconds per (one-way) message, or per probe.
template <typename Api>
double ns_per_message(Api& api, const Pair& pair, const Measurement& m, int iterations) {
  if constexpr (kHasProbe<Api>)
    if (m.how == Completion::kProbeOnly)
      return time_per_call(MPI_COMM_WORLD, 1, iterations, [&] { api.probe_any(); }).median_ns;
  if (m.messages == 1)
    return time_per_call(MPI_COMM_WORLD, 1, iterations,
                         [&] { ping_pong(api, pair.me, pair.a, pair.b); })
               .median_ns /
           2;
  std::array<double, kWindow> buffer{};
  const std::span<double> messages(buffer.data(), static_cast<std::size_t>(m.messages));
  const auto timed = [&](auto&& one_window) {
    return time_per_call(MPI_COMM_WORLD, 1, iterations, one_window).median_ns / m.messages;
  };
  if constexpr (kHasSomeAndAny<Api>) {
    if (m.how == Completion::kWaitsome)
      return timed([&] { window<Completion::kWaitsome>(api, messages, pair.me, pair.a, pair.b); });
    if (m.how == Completion::kWaitany)
      return timed([&] { window<Completion::kWaitany>(api, messages, pair.me, pair.a, pair.b); });
  }
  return timed([&] { window<Completion::kWaitall>(api, messages, pair.me, pair.a, pair.b); });
}

}  // namespace

std::vector<Row> p2p_overhead(const MpiBenchOptions& o) {
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (p < 2) return {};
  MPI_Comm reversed_mpi;
  MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &reversed_mpi);
  SCOMM_Comm reversed = SCOMM_COMM_NULL;
  SCOMM_Comm_create_range(SCOMM_COMM_WORLD, p - 1, 0, -1, &reversed);
  HandleFloor world_floor(MPI_COMM_WORLD), reversed_floor(reversed_mpi);
  struct Case {
    std::string name;
    MpiApi mpi;
    ScommApi scomm;
    FloorApi floor;
    Pair pair;
    bool waiting_receive = false;  // WaitingReceives live while it runs (the floor left out)
  };
  Case cases[] = {{"world",
                   MpiApi(MPI_COMM_WORLD),
                   ScommApi(SCOMM_COMM_WORLD),
                   FloorApi(world_floor),
                   {rank, 0, 1}},
                  {"reversed world (regular map)",
                   MpiApi(reversed_mpi),
                   ScommApi(reversed),
                   FloorApi(reversed_floor),
                   {p - 1 - rank, p - 1, p - 2}},
                  {"world, an any-tag receive waiting elsewhere",
                   MpiApi(MPI_COMM_WORLD),
                   ScommApi(SCOMM_COMM_WORLD),
                   FloorApi(world_floor),
                   {rank, 0, 1},
                   true}};
  // The floor has no Waitsome, no Waitany and no probe: those rows compare scomm with MPI alone.
  const Measurement measurements[] = {
      {"8-byte ping-pong", 1, Completion::kWaitall},
      {"64-message window", kWindow, Completion::kWaitall},
      {"8-message window, Waitsome", 8, Completion::kWaitsome},
      {"64-message window, Waitsome", kWindow, Completion::kWaitsome},
      {"64-message window, Waitany", kWindow, Completion::kWaitany},
      {"probe of any source and tag, none there", 1, Completion::kProbeOnly}};
  const int pings = o.quick ? 1000 : 20000, windows = o.quick ? 100 : 2000;
  // --only names one case (its names hold commas), as scripts/instructions.sh profiles "world".
  if (!o.only.empty() &&
      std::ranges::none_of(cases, [&](const Case& c) { return c.name == o.only; }))
    throw std::runtime_error("--only: p2p-overhead has no case named '" + o.only + "'");
  std::vector<Row> rows;
  for (Case& c : cases) {
    if (!o.only.empty() && c.name != o.only) continue;
    std::optional<WaitingReceives> waiting;
    if (c.waiting_receive) waiting.emplace();
    for (const Measurement& m : measurements) {
      const int iterations = m.messages == 1 ? pings : windows * kWindow / m.messages;
      const bool with_floor = m.how == Completion::kWaitall && !c.waiting_receive;
      std::vector<double> raw, ours, floor;
      // Each variant first by turns: whatever the first after a switch meets hits all alike.
      const std::array<std::function<void()>, 3> variants{
          [&] { raw.push_back(ns_per_message(c.mpi, c.pair, m, iterations)); },
          [&] { ours.push_back(ns_per_message(c.scomm, c.pair, m, iterations)); },
          [&] {
            if (with_floor) floor.push_back(ns_per_message(c.floor, c.pair, m, iterations));
          }};
      for (int rep = 0; rep < o.reps; ++rep)
        for (std::size_t turn = 0; turn < variants.size(); ++turn)
          variants[(static_cast<std::size_t>(rep) + turn) % variants.size()]();
      const char* unit = m.how == Completion::kProbeOnly ? "ns per probe"
                         : m.messages == 1               ? "ns per one-way message"
                                                         : "ns per message";
      for (const auto& [who, times] : {std::pair{", raw MPI", &raw}, std::pair{", scomm", &ours},
                                       std::pair{", checked-handle floor", &floor}})
        if (!times->empty())
          rows.push_back(
              {"p2p-overhead", c.name + ": " + m.name + who, unit, p, summarize(*times), {}});
    }
  }
  SCOMM_Comm_free(&reversed);
  MPI_Comm_free(&reversed_mpi);
  return rows;
}

}  // namespace scomm::bench
