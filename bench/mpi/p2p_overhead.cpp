// Point-to-point overhead against raw MPI on the same ranks: 8-byte ping-pong latency between
// ranks 0 and 1 and the message rate of windows of 64 nonblocking sends, on the world and on a
// reversed-world communicator (a regular map: its lookups must cost nothing measurable). Beside
// them a minimal library with checked integer request handles (HandleFloor). The
// variants alternate repetition by repetition so drift hits all alike.
#include <array>
#include <memory>
#include <tuple>

#include "experiments.hpp"
#include "scomm.h"

namespace scomm::bench {
namespace {

constexpr int kWindow = 64;

// send/recv/isend/irecv/waitall of one API, bound to one communicator.
struct Api {
  std::function<void(const void*, int)> send;
  std::function<void(void*, int)> recv;
  std::function<void(const void*, int)> isend;
  std::function<void(void*, int)> irecv;
  std::function<void()> waitall;
};

Api mpi_api(MPI_Comm comm, std::vector<MPI_Request>& requests) {
  return {[=](const void* b, int to) { MPI_Send(b, 1, MPI_DOUBLE, to, 1, comm); },
          [=](void* b, int from) { MPI_Recv(b, 1, MPI_DOUBLE, from, 1, comm, MPI_STATUS_IGNORE); },
          [=, &requests](const void* b, int to) {
            requests.push_back(MPI_REQUEST_NULL);
            MPI_Isend(b, 1, MPI_DOUBLE, to, 1, comm, &requests.back());
          },
          [=, &requests](void* b, int from) {
            requests.push_back(MPI_REQUEST_NULL);
            MPI_Irecv(b, 1, MPI_DOUBLE, from, 1, comm, &requests.back());
          },
          [&requests] {
            MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
            requests.clear();
          }};
}

Api scomm_api(SCOMM_Comm comm, std::vector<SCOMM_Request>& requests) {
  return {
      [=](const void* b, int to) { SCOMM_Send(b, 1, MPI_DOUBLE, to, 1, comm); },
      [=](void* b, int from) { SCOMM_Recv(b, 1, MPI_DOUBLE, from, 1, comm, SCOMM_STATUS_IGNORE); },
      [=, &requests](const void* b, int to) {
        requests.push_back(SCOMM_REQUEST_NULL);
        SCOMM_Isend(b, 1, MPI_DOUBLE, to, 1, comm, &requests.back());
      },
      [=, &requests](void* b, int from) {
        requests.push_back(SCOMM_REQUEST_NULL);
        SCOMM_Irecv(b, 1, MPI_DOUBLE, from, 1, comm, &requests.back());
      },
      [&requests] {
        SCOMM_Waitall(static_cast<int>(requests.size()), requests.data(), SCOMM_STATUSES_IGNORE);
        requests.clear();
      }};
}

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

Api floor_api(HandleFloor& floor, std::vector<int>& requests) {
  constexpr int c = 1;
  return {[&floor](const void* b, int to) { floor.send(b, to, c); },
          [&floor](void* b, int from) { floor.recv(b, from, c); },
          [&floor, &requests](const void* b, int to) {
            requests.push_back(0);
            floor.isend(b, to, c, &requests.back());
          },
          [&floor, &requests](void* b, int from) {
            requests.push_back(0);
            floor.irecv(b, from, c, &requests.back());
          },
          [&floor, &requests] {
            floor.waitall(static_cast<int>(requests.size()), requests.data());
            requests.clear();
          }};
}

// Ranks a and b of the communicator ping-pong; nanoseconds per one-way message.
std::function<void()> ping_pong(const Api& api, int me, int a, int b) {
  return [=, &api] {
    double x = 1.0;
    if (me == a) {
      api.send(&x, b);
      api.recv(&x, b);
    } else if (me == b) {
      api.recv(&x, a);
      api.send(&x, a);
    }
  };
}

// a sends a window of messages to b, b acknowledges.
std::function<void()> window(const Api& api, int me, int a, int b) {
  auto buffer = std::make_shared<std::array<double, kWindow>>();
  return [=, &api] {
    double ack = 0;
    if (me == a) {
      for (double& x : *buffer) api.isend(&x, b);
      api.waitall();
      api.recv(&ack, b);
    } else if (me == b) {
      for (double& x : *buffer) api.irecv(&x, a);
      api.waitall();
      api.send(&ack, a);
    }
  };
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
  std::vector<MPI_Request> mpi_requests;
  std::vector<SCOMM_Request> scomm_requests;
  std::vector<int> floor_requests;
  HandleFloor world_floor(MPI_COMM_WORLD), reversed_floor(reversed_mpi);
  struct Case {
    std::string name;
    Api mpi, scomm, floor;
    int me, a, b;
  };
  const Case cases[] = {
      {"world", mpi_api(MPI_COMM_WORLD, mpi_requests), scomm_api(SCOMM_COMM_WORLD, scomm_requests),
       floor_api(world_floor, floor_requests), rank, 0, 1},
      {"reversed world (regular map)", mpi_api(reversed_mpi, mpi_requests),
       scomm_api(reversed, scomm_requests), floor_api(reversed_floor, floor_requests), p - 1 - rank,
       p - 1, p - 2}};
  const int pings = o.quick ? 1000 : 20000, windows = o.quick ? 100 : 2000;
  std::vector<Row> rows;
  for (const Case& c : cases) {
    for (const auto& [kind, iterations, per] :
         {std::tuple{"8-byte ping-pong", pings, 2},
          std::tuple{"64-message window", windows, kWindow}}) {
      const bool pingpong = std::string(kind) == "8-byte ping-pong";
      auto op = [&](const Api& api) {
        return pingpong ? ping_pong(api, c.me, c.a, c.b) : window(api, c.me, c.a, c.b);
      };
      std::vector<double> raw, ours, floor;
      for (int rep = 0; rep < o.reps; ++rep) {
        raw.push_back(time_per_call(MPI_COMM_WORLD, 1, iterations, op(c.mpi)).median_ns / per);
        ours.push_back(time_per_call(MPI_COMM_WORLD, 1, iterations, op(c.scomm)).median_ns / per);
        floor.push_back(time_per_call(MPI_COMM_WORLD, 1, iterations, op(c.floor)).median_ns / per);
      }
      const char* unit = pingpong ? "ns per one-way message" : "ns per message";
      for (const auto& [who, times] : {std::pair{", raw MPI", &raw}, std::pair{", scomm", &ours},
                                       std::pair{", checked-handle floor", &floor}})
        rows.push_back(
            {"p2p-overhead", c.name + ": " + kind + who, unit, p, summarize(*times), {}});
    }
  }
  SCOMM_Comm_free(&reversed);
  MPI_Comm_free(&reversed_mpi);
  return rows;
}

}  // namespace scomm::bench
