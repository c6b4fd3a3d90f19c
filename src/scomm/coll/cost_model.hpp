// What messages and local work cost, for the simulator (simulator.hpp). Pure C++ (no MPI).
//
// A link between two ranks is described in LogGP terms, which also hold Hockney's model:
//   - the sender's port is busy send_overhead + bytes * per_byte per message, and the next
//     message leaves no earlier than `gap` after the previous one;
//   - the message arrives `latency` after it has left the port;
//   - the receiver spends recv_overhead per message, one message at a time.
// Hockney (alpha, beta) is the one-port "telephone" model: a message occupies its sender for
// alpha + n beta and arrives then, so a binomial broadcast takes ceil(log2 p) (alpha + n beta).
// LogGP (L, o, g, G) charges o at both ends, (k) G per k bytes (not k - 1: a 0-byte message is
// free of G), L on the wire and g between injections.
// MPIs switch protocol with the size: up to an eager limit a message is copied out at once, above
// it a handshake comes first, then the data (often by a single copy). A link may say so: above
// `eager_bytes`, `rendezvous_overhead` more port time and `rendezvous_per_byte` per byte, and the
// data moves only once its receive is posted (simulator.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace scomm::coll {

struct Link {
  double latency = 0;        // L: wire time, overlapping the sender's next message
  double send_overhead = 0;  // o_s: port time per message at the sender
  double recv_overhead = 0;  // o_r: time per message at the receiver
  double gap = 0;            // g: least time between two injections of one sender
  double per_byte = 0;       // G or beta: port time per byte at the sender
  std::int64_t eager_bytes = std::numeric_limits<std::int64_t>::max();  // one protocol: all
  double rendezvous_overhead = 0;
  double rendezvous_per_byte = 0;

  static Link hockney(double alpha, double beta) noexcept { return {0, alpha, 0, 0, beta}; }
  static Link loggp(double L, double o, double g, double G) noexcept { return {L, o, o, g, G}; }
  // Hockney's (alpha, beta) up to `eager_bytes`, (rendezvous_alpha, rendezvous_beta) above.
  static Link hockney_protocols(double alpha, double beta, std::int64_t eager_bytes,
                                double rendezvous_alpha, double rendezvous_beta) noexcept {
    return {0, alpha, 0, 0, beta, eager_bytes, rendezvous_alpha - alpha, rendezvous_beta};
  }

  // How long a message of `bytes` keeps the sender's port busy (gap aside).
  double port_time(std::int64_t bytes) const noexcept {
    const auto n = static_cast<double>(bytes);
    if (bytes > eager_bytes) return send_overhead + rendezvous_overhead + n * rendezvous_per_byte;
    return send_overhead + n * per_byte;
  }
};

// Local work per byte: a copy and a reduction (of `from` into `to`).
struct LocalCost {
  double copy_per_byte = 0;
  double reduce_per_byte = 0;
};

class CostModel {
 public:
  virtual ~CostModel() = default;
  // The link from `src` to `dst` (communicator ranks).
  virtual Link link(int src, int dst) const = 0;
  // Local copy and reduction cost at `rank`.
  virtual LocalCost local(int rank) const = 0;
  // Hierarchical models: the number of link levels (1 for a flat model) and the level of the
  // pair (0 innermost, e.g. inside a node; levels() - 1 the outermost, e.g. the network).
  virtual int levels() const { return 1; }
  virtual int level(int /*src*/, int /*dst*/) const { return 0; }
};

// The same link between every pair.
class UniformModel final : public CostModel {
 public:
  explicit UniformModel(Link link, LocalCost local = {}) : link_(link), local_(local) {}
  Link link(int, int) const override { return link_; }
  LocalCost local(int) const override { return local_; }

 private:
  Link link_;
  LocalCost local_;
};

// A hierarchy of clusters (cores in a node, nodes in a rack, ...): level i maps each rank to its
// cluster id at that level, clusters of level i nested in those of level i + 1. A pair of ranks
// uses the link of the innermost level whose cluster holds both, else `outermost` (the
// network); levels() is the number of cluster levels plus one.
class LevelModel final : public CostModel {
 public:
  struct Level {
    std::function<std::int64_t(int rank)> cluster;
    Link link;
  };
  LevelModel(std::vector<Level> levels, Link outermost, LocalCost local = {})
      : levels_(std::move(levels)), outermost_(outermost), local_(local) {}
  // Nodes of `ranks_per_node` consecutive ranks: `intra` inside a node, `inter` between nodes.
  static LevelModel nodes(int ranks_per_node, Link intra, Link inter, LocalCost local = {});

  Link link(int src, int dst) const override;
  LocalCost local(int) const override { return local_; }
  int levels() const override { return static_cast<int>(levels_.size()) + 1; }
  int level(int src, int dst) const override;

 private:
  std::vector<Level> levels_;
  Link outermost_;
  LocalCost local_;
};

}  // namespace scomm::coll
