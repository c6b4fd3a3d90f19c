// How well the cost-model simulator predicts this machine. The links are fitted from one-way
// messages over scomm point-to-point (what the collectives run on), each acknowledged by an empty
// one: Hockney's alpha and beta over all sizes, and LogGP per protocol (a line up to the eager
// limit, another above it, the limit where the two fit best, the sender busy for a stream's time
// per message); copy and reduction cost per byte from local loops. Then every algorithm of the
// collectives whose blocks are of one size (fit_algorithms.hpp), each forced in turn
// (SCOMM_COLL_<OP> and a fresh SCOMM_Init), measured in a loop of calls and simulated as one,
// with both links at this P.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>

#include "comparison.hpp"
#include "experiments.hpp"
#include "fit_algorithms.hpp"
#include "scomm.h"
#include "scomm/coll/simulator.hpp"

namespace scomm::bench {
namespace {

using coll::Shape;

// Restarts scomm with `variable` set to `value` (nullopt: unset), so that SCOMM_Init reads it.
void restart_with(const char* variable, const std::optional<std::string>& value) {
  SCOMM_Finalize();
  if (value)
    setenv(variable, value->c_str(), 1);
  else
    unsetenv(variable);
  if (SCOMM_Init() != SCOMM_SUCCESS) throw std::runtime_error("SCOMM_Init failed");
}

std::optional<std::string> environment(const char* variable) {
  const char* value = std::getenv(variable);
  return value ? std::optional<std::string>(value) : std::nullopt;
}

// Buffers of the fit's messages: rank 0 sends from one, rank 1 receives into another, so that
// neither is written by the other side between messages (as a collective's input and output;
// a ping-pong's buffer travels to and fro, cache lines and all, at up to twice the cost).
struct LinkBuffers {
  std::vector<char> send = std::vector<char>(1 << 20), receive = std::vector<char>(1 << 20);
};

void wait(SCOMM_Request& request) {
  SCOMM_Wait(&request, SCOMM_STATUS_IGNORE);
}

// ns per round of a `bytes` message from rank 0 to rank 1 and an empty one back, over
// SCOMM_Isend / SCOMM_Irecv as the schedules send; slowest rank.
double acknowledged_ns(LinkBuffers& b, int bytes, int iterations) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto op = [&] {
    SCOMM_Request request = SCOMM_REQUEST_NULL;
    if (rank == 0) {
      SCOMM_Isend(b.send.data(), bytes, MPI_BYTE, 1, 0, SCOMM_COMM_WORLD, &request);
      wait(request);
      SCOMM_Irecv(b.receive.data(), 0, MPI_BYTE, 1, 0, SCOMM_COMM_WORLD, &request);
      wait(request);
    } else if (rank == 1) {
      SCOMM_Irecv(b.receive.data(), bytes, MPI_BYTE, 0, 0, SCOMM_COMM_WORLD, &request);
      wait(request);
      SCOMM_Isend(b.send.data(), 0, MPI_BYTE, 0, 0, SCOMM_COMM_WORLD, &request);
      wait(request);
    }
  };
  op();
  return time_per_call(MPI_COMM_WORLD, 5, iterations, op).median_ns;
}

// ns per message of a stream of blocking 8-byte sends from rank 0 to rank 1, 32 to an
// acknowledgement: how long a message keeps its sender busy when its receive is ready, LogGP's
// o (or g, whichever is more), as a one-message schedule's replay sends. The least of nine
// repetitions: a cost that anything else on the machine can only add to.
double sender_ns(LinkBuffers& b, bool quick) {
  constexpr int kBurst = 32;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto op = [&] {
    if (rank > 1) return;
    for (int k = 0; k < kBurst; ++k) {
      if (rank == 0)
        SCOMM_Send(b.send.data(), 8, MPI_BYTE, 1, 0, SCOMM_COMM_WORLD);
      else
        SCOMM_Recv(b.receive.data(), 8, MPI_BYTE, 0, 0, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE);
    }
    if (rank == 0)
      SCOMM_Recv(b.receive.data(), 0, MPI_BYTE, 1, 1, SCOMM_COMM_WORLD, SCOMM_STATUS_IGNORE);
    else
      SCOMM_Send(b.send.data(), 0, MPI_BYTE, 0, 1, SCOMM_COMM_WORLD);
  };
  op();
  return time_per_call(MPI_COMM_WORLD, 9, quick ? 20 : 500, op).min_ns / kBurst;
}

// CPU ns per byte of `op` over 1 MiB, the largest over ranks.
double local_ns_per_byte(
    bool quick, const std::function<void(std::vector<double>&, const std::vector<double>&)>& op) {
  std::vector<double> to(131072, 1.0), from(131072, 2.0);
  const Timing t = cpu_time_per_call(MPI_COMM_WORLD, 5, quick ? 5 : 50, [&] { op(to, from); });
  return t.median_ns / (131072.0 * 8);
}

struct Point {
  double bytes, ns;
};

// Hockney's line through one-way times, least squares on the relative error (weights 1 / t^2),
// so that the latency of short messages counts as much as the bandwidth of long ones; `error`:
// the sum of the squared relative errors.
struct Line {
  double alpha = 0, beta = 0, error = 0;  // ns, ns per byte

  explicit Line(std::span<const Point> points) {
    double s = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const auto [n, t] : points) {
      const double w = 1 / std::max(t * t, 1.0);
      s += w, sx += w * n, sy += w * t, sxx += w * n * n, sxy += w * n * t;
    }
    beta = std::max(0.0, (s * sxy - sx * sy) / (s * sxx - sx * sx));
    alpha = std::max(0.0, (sy - beta * sx) / s);
    for (const auto [n, t] : points) error += std::pow((alpha + beta * n - t) / t, 2);
  }
};

struct Fit {
  coll::Link hockney;  // one line for every size
  coll::Link loggp;    // a line per protocol, the sender busy for only part of the eager one
  coll::LocalCost local;
};

// The eager limit as the split of the sizes, at least three on each side, whose two lines fit best;
// the sender is busy `sender_ns` of the eager line's alpha (LogGP's o), the rest is the wire's
// (L). Above the limit the sender waits for the whole transfer (the rendezvous), so that a
// message arrives when its protocol's line says either way.
coll::Link loggp_by_protocol(std::span<const Point> points, double sender_ns) {
  constexpr std::size_t kLeast = 3;  // points of a line: two would fit any noise exactly
  std::size_t split = kLeast;
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t k = kLeast; k + kLeast <= points.size(); ++k) {
    const double error = Line(points.first(k)).error + Line(points.subspan(k)).error;
    if (error < least) {
      least = error;
      split = k;
    }
  }
  const Line eager(points.first(split)), rendezvous(points.subspan(split));
  const double o = std::min(sender_ns, eager.alpha);
  coll::Link link = coll::Link::loggp(eager.alpha - o, o, 0, eager.beta);
  link.recv_overhead = 0;  // inside the line's alpha already
  link.eager_bytes = static_cast<std::int64_t>(points[split - 1].bytes);
  link.rendezvous_overhead = std::max(0.0, rendezvous.alpha - eager.alpha);
  link.rendezvous_per_byte = rendezvous.beta;
  return link;
}

Fit fit(bool quick) {
  LinkBuffers buffers;
  const double empty = acknowledged_ns(buffers, 0, quick ? 200 : 5000);
  std::vector<Point> points;
  for (const int bytes : {8, 64, 512, 2048, 4096, 8192, 32768, 262144, 1048576}) {
    const int iterations = bytes <= 8192 ? (quick ? 200 : 5000) : (quick ? 5 : 50);
    points.push_back({static_cast<double>(bytes),
                      std::max(1.0, acknowledged_ns(buffers, bytes, iterations) - empty / 2)});
  }
  Fit f;
  const Line all(points);
  f.hockney = coll::Link::hockney(all.alpha, all.beta);
  f.loggp = loggp_by_protocol(points, sender_ns(buffers, quick));
  f.local.copy_per_byte = local_ns_per_byte(quick, [](auto& to, const auto& from) {
    std::memcpy(to.data(), from.data(), to.size() * sizeof(double));
  });
  f.local.reduce_per_byte = local_ns_per_byte(quick, [](auto& to, const auto& from) {
    for (std::size_t i = 0; i < to.size(); ++i) to[i] += from[i];
  });
  return f;
}

// Calls simulated back to back: the measurement's loop, whose calls overlap where a rank is free
// before its messages have arrived. A call's time is the steady increase per call.
constexpr int kSimulatedCalls = 16;

Row measure(const FitAlgorithm& a, int bytes, const Fit& f, FitBuffers& buffers,
            const MpiBenchOptions& o, int p) {
  const int count = bytes / 8;
  const auto op = [&] { a.run(buffers, count); };
  const int iterations = iterations_for(o.quick ? 2e5 : 1e7, 1000, op);
  const Timing measured = time_per_call(MPI_COMM_WORLD, o.reps, iterations, op);
  const auto simulate = [&](const coll::Link& link, int calls) {
    return coll::simulate([&](const Shape& s) { return a.build(s, count); }, p, 0,
                          coll::UniformModel(link, f.local), {8, 8}, calls);
  };
  const coll::Simulation sim = simulate(f.hockney, 1), by_protocol = simulate(f.loggp, 1);
  const auto per_call = [&](const coll::Link& link, const coll::Simulation& one) {
    return (simulate(link, kSimulatedCalls).time - one.time) / (kSimulatedCalls - 1);
  };
  const double predicted = per_call(f.hockney, sim),
               predicted_by_protocol = per_call(f.loggp, by_protocol);
  const auto error = [&](double time) {
    return fixed((time - measured.median_ns) / measured.median_ns, 3);
  };
  std::string operation = std::string(a.variable).substr(std::strlen("SCOMM_COLL_"));
  return {"simulator-fit",
          operation + " " + a.name + " " + std::to_string(bytes) + " B",
          "ns per call (measured)",
          p,
          measured,
          {{"operation", operation},
           {"algorithm", a.name},
           {"bytes", std::to_string(bytes)},
           {"simulated calls", std::to_string(kSimulatedCalls)},
           {"predicted ns", fixed(predicted, 0)},
           {"relative error", error(predicted)},
           {"predicted by protocol ns", fixed(predicted_by_protocol, 0)},
           {"relative error by protocol", error(predicted_by_protocol)},
           {"one call ns", fixed(sim.time, 0)},
           {"one call by protocol ns", fixed(by_protocol.time, 0)},
           {"messages", std::to_string(sim.messages)},
           {"critical messages", std::to_string(sim.critical_messages)},
           {"valid schedule", sim.ok() && by_protocol.ok() ? "yes" : "no"}}};
}

}  // namespace

std::vector<Row> simulator_fit(const MpiBenchOptions& o) {
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p < 2) return {};
  const Fit f = fit(o.quick);
  const std::vector<std::pair<std::string, std::string>> model = {
      {"alpha ns", fixed(f.hockney.send_overhead, 1)},
      {"beta ns/B", fixed(f.hockney.per_byte, 4)},
      {"eager limit B", std::to_string(f.loggp.eager_bytes)},
      {"eager alpha ns", fixed(f.loggp.send_overhead + f.loggp.latency, 1)},
      {"eager beta ns/B", fixed(f.loggp.per_byte, 4)},
      {"sender overhead ns", fixed(f.loggp.send_overhead, 1)},
      {"rendezvous alpha ns",
       fixed(f.loggp.send_overhead + f.loggp.latency + f.loggp.rendezvous_overhead, 1)},
      {"rendezvous beta ns/B", fixed(f.loggp.rendezvous_per_byte, 4)},
      {"copy ns/B", fixed(f.local.copy_per_byte, 4)},
      {"reduce ns/B", fixed(f.local.reduce_per_byte, 4)}};
  std::vector<Row> rows;
  FitBuffers buffers(p);  // once: p MiB each, and every measurement's data
  for (const FitAlgorithm& a : fit_algorithms()) {
    const auto saved = environment(a.variable);
    restart_with(a.variable, a.name);
    for (const int bytes : {8, 4096, 65536, 1048576}) {
      if (!a.sized && bytes != 8) break;
      if (o.quick && bytes > 65536) break;
      rows.push_back(measure(a, a.sized ? bytes : 0, f, buffers, o, p));
      rows.back().extra.insert(rows.back().extra.end(), model.begin(), model.end());
    }
    restart_with(a.variable, saved);
  }
  return rows;
}

}  // namespace scomm::bench
