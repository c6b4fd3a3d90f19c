// Point-to-point overhead against raw MPI on the same ranks: 8-byte ping-pong latency between
// ranks 0 and 1 and the message rate of windows of 64 nonblocking sends, on the world and on a
// reversed-world communicator (a regular map: its lookups must cost nothing measurable). The
// raw MPI and scomm variants alternate repetition by repetition so drift hits both alike.
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
  struct Case {
    std::string name;
    Api mpi, scomm;
    int me, a, b;
  };
  const Case cases[] = {{"world", mpi_api(MPI_COMM_WORLD, mpi_requests),
                         scomm_api(SCOMM_COMM_WORLD, scomm_requests), rank, 0, 1},
                        {"reversed world (regular map)", mpi_api(reversed_mpi, mpi_requests),
                         scomm_api(reversed, scomm_requests), p - 1 - rank, p - 1, p - 2}};
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
      std::vector<double> raw, ours;
      for (int rep = 0; rep < o.reps; ++rep) {
        raw.push_back(time_per_call(MPI_COMM_WORLD, 1, iterations, op(c.mpi)).median_ns / per);
        ours.push_back(time_per_call(MPI_COMM_WORLD, 1, iterations, op(c.scomm)).median_ns / per);
      }
      const char* unit = pingpong ? "ns per one-way message" : "ns per message";
      rows.push_back(
          {"p2p-overhead", c.name + ": " + kind + ", raw MPI", unit, p, summarize(raw), {}});
      rows.push_back(
          {"p2p-overhead", c.name + ": " + kind + ", scomm", unit, p, summarize(ours), {}});
    }
  }
  SCOMM_Comm_free(&reversed);
  MPI_Comm_free(&reversed_mpi);
  return rows;
}

}  // namespace scomm::bench
