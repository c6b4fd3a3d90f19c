// What a message costs at each stage of a multilevel collective, for choosing the stage's tree
// shape. Stage 0 joins the clusters of level 0 (the slowest links, e.g. a WAN), stage s the
// clusters of level s inside one cluster of level s - 1, and stage depth the ranks inside one
// innermost cluster (the fastest links). Pure C++ (no MPI).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scomm/coll/cost_model.hpp"

namespace scomm::topo {

// The tree shapes a stage can take among its n participants.
enum class StageShape : std::uint8_t {
  kFlat,      // the stage's root sends to every other participant: where latency dominates
  kBinomial,  // ceil(log2 n) steps: where the per-message overhead dominates
};

struct LevelCosts {
  // links[s]: the link of stage s (0..depth); a stage beyond the last uses the last one.
  std::vector<coll::Link> links;

  // Typical links for `depth` levels: a wide-area network between the clusters of level 0 when
  // depth >= 2, a cluster network between nodes, shared memory inside the innermost cluster.
  static LevelCosts defaults(int depth);
  // The defaults with the links `spec` names (SCOMM_TOPO_LINKS): comma-separated
  // `name=LATENCY[:BANDWIDTH[:OVERHEAD]]`, where name is a level of `names` (the link between its
  // clusters) or `inside` (inside the innermost cluster); LATENCY and OVERHEAD (per message, at
  // the sender) in s, ms, us or ns, BANDWIDTH in B/s, KB/s, MB/s or GB/s (powers of 1000), e.g.
  // "site=10ms:100MB/s,machine=100us:1GB/s". Parts left out keep the default's. Error(kArg) for a
  // malformed entry or an unknown level.
  static LevelCosts configured(const std::vector<std::string>& names, std::string_view spec);

  const coll::Link& link(int stage) const;
  // The shape with the lower modelled time for `participants` ranks and a message of `bytes`,
  // sent as `segments` pipelined pieces of that size (a large one: the root's port time per
  // piece decides, and a flat tree's root sends n - 1 times per piece).
  StageShape shape(int stage, int participants, std::int64_t bytes,
                   std::int64_t segments = 1) const;
  // The modelled time of stage `stage` among `participants` ranks in the shape shape() picks.
  double stage_time(int stage, int participants, std::int64_t bytes,
                    std::int64_t segments = 1) const;
};

}  // namespace scomm::topo
