#include "scomm/coll/selection.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string>

#include "scomm/base/error.hpp"

namespace scomm::coll {
namespace {

using enum Algorithm;
using enum Operation;

// Thresholds (bytes per rank), in the spirit of MPICH's defaults, tuned by the benchmarks of
// docs/RESULTS.md.
// Bcast: scatter + allgather from 512 KiB (MPICH's long-message threshold); below, binomial
// (0.56x scatter + allgather's time at 256 KiB, P = 8, on the 2-core VM).
constexpr std::int64_t kBcastLong = 512 * 1024;
// Barrier: linear on 5-7 ranks, where dissemination takes as many rounds as on 8 (Open MPI's
// choice there too; 1.05-1.18x native's time on the 2-core VM, dissemination 1.5-2.0x).
constexpr int kBarrierLinearMinRanks = 5;
constexpr int kBarrierLinearMaxRanks = 7;
constexpr int kBcastMinScatterRanks = 8;  // below, the extra rounds cost more (MPICH's default)
// Bcast and reduce on 8 or more ranks: the pipelined binary tree, where its segments overlap the
// levels (16 cores: bcast 4 KiB 1.10x native at P = 8 and 1.01x at P = 16 against binomial's
// 1.26x and 1.14x; reduce 4-32 KiB 0.96-1.18x against 1.20-1.32x). For bcast from the shortest
// vector: one segment down a binary tree reaches the leaves sooner than the binomial tree's root
// sends them one by one (16 cores, 8-512 B: 0.52-1.00x native against 0.76-1.07x; the VM at P = 8
// alike). Reduce keeps the binomial tree below 4 KiB (16 cores, P = 8: 0.78-0.89x against
// 0.98-1.06x). Fewer ranks have too few levels to overlap a whole vector's hops (P = 4: 1.13x
// against 1.05x; vectors of 4-8 KiB go in eager segments instead, below), and longer
// vectors are bandwidth-bound (reduce 256 KiB, P = 8: 1.60x against 1.09x). Where ranks share
// cores reduce keeps binomial, as each segment's step waits for a scheduling slice (2-core VM,
// P = 8, nine launches: 0.57x, 0.97x and 0.41x native at 4, 32 and 256 KiB against the
// pipelined tree's 0.66x, 0.98x and 0.62x).
constexpr int kPipelinedTreeMinRanks = 8;
// Bcast on 16 or more ranks: the pipelined tree at every size, in 128 KiB segments from 256 KiB.
// A tree of four levels and more keeps overlapping them where binomial's root sends the whole
// vector log2 p times and scatter + allgather pays 2 (p - 1) rounds (16 cores, P = 16, one run
// per algorithm: 256 KiB 0.81x native against binomial's 0.94x; 1 MiB 1.08x against 1.42x and
// scatter + allgather's 1.57x). Longer segments there: a segment's round costs some 7 us beyond
// its transfer, and the best segment of a pipeline grows as the root of the vector's length
// (1 MiB: 1.08x in 128 KiB segments, 1.36x in 64 KiB, 1.36x in 32 KiB).
constexpr int kBcastPipelinedAlwaysRanks = 16;
constexpr std::int64_t kBcastLongSegmentFrom = 256 * 1024;
constexpr std::int64_t kBcastLongSegmentBytes = 128 * 1024;
// Bcast vectors of 4-8 KiB on ranks with cores of their own: down the pipelined tree in 2 KiB
// segments, on any number of ranks. A whole vector misses an eager message of Open MPI's shared
// memory (4 KiB with its header) and waits for each hop's rendezvous, where segments of half go
// eagerly (16 cores, ranks bound to cores, bcast at P = 8, 4 KiB: 0.96-1.05x native in three runs
// against 1.13-1.16x in one segment; 1 KiB segments 1.70-1.90x; P = 16 alike; at b44c9c1 0.51,
// 0.75, 1.01 and 0.86x at P = 2, 4, 8 and 16). Reduce only on two ranks, one hop (16 cores: 4 KiB
// in 1.2-1.7 us against 2.1-2.3 whole): up a tree each relay's reduction of a segment delays the
// next, and a sweep of three launches each (docs/MEASUREMENTS.md, stop 62) read 1.37x native in
// 2 KiB segments at P = 4 against binomial's 0.99x, 1.38x at P = 8 against the pipelined tree's
// whole vector 1.05-1.08x, and 1.01x at P = 16 against 0.90-0.91x. A longer vector's extra rounds
// cost more than its rendezvous (32 KiB: 2.2x in 2 KiB segments). Where ranks share cores each
// extra hop waits for a scheduling slice instead (2-core VM, P = 8, 4 KiB: 0.60-0.75x native in
// 2 KiB segments, 0.48-0.56x whole).
constexpr std::int64_t kEagerSegmentFrom = 4 * 1024;
constexpr std::int64_t kEagerSegmentBelow = 8 * 1024;
constexpr std::int64_t kEagerSegmentBytes = 2 * 1024;
constexpr int kReduceEagerSegmentsMaxRanks = 2;
// Where ranks share cores, bcast from 32 KiB on fewer than 8 ranks down the 4-nomial tree, whose
// root sends to up to 4 ranks itself: one hop where binomial's second waits for a scheduling
// slice (2-core VM, nine launches each: 1.00-1.02x native at 32 and 256 KiB, P = 4 and 5, within
// 0.89-1.13x, where binomial read 0.96-1.11x within 0.60-1.31x; Open MPI sends linearly there too).
// Longer vectors keep binomial (1 MiB: 4-nomial 1.22-1.31x, binomial 0.96-1.10x), and so does
// 8 ranks and more, where scatter + allgather's 2 (p - 1) steps each wait for a slice (P = 8,
// 1 MiB: 1.32x against binomial's 0.87x).
constexpr std::int64_t kBcastSharedKnomialFrom = 32 * 1024;
constexpr std::int64_t kReducePipelinedStart = 4 * 1024;
constexpr std::int64_t kBcastPipelinedEnd = 32 * 1024;
constexpr std::int64_t kReducePipelinedEnd = 256 * 1024;
// Scans: up to 16 ranks the chain, whose back-to-back calls pipeline, as Open MPI's own linear
// scan does (0.1-0.6x the time of recursive doubling at 8 B-1 MiB, P = 3 and 8, on the 2-core VM;
// at P = 16 on 16 cores 0.8-1.3x native where recursive doubling took 1.4-6.2x and the tree
// 1.6-11.6x); above, recursive doubling, or from 16 KiB the tree (3 vectors per rank instead of
// log2 p).
constexpr int kScanMaxChainRanks = 16;
// The chain in segments, each rank forwarding a segment while it receives the next, from 512 KiB
// on 8 or more ranks with cores of their own. Back-to-back calls of the whole-vector chain already
// overlap along it, and each segment's round costs some 7 us beyond its transfer, so segments pay
// only where a long vector's hops stall that overlap (16 cores, in segments against whole: 1 MiB
// 0.56x native against 1.38-1.44x at P = 16, 1.03x against 1.22x at P = 8; 256 KiB 1.15-1.32x
// against 0.98-1.09x at P = 4, 8 and 16; 1 MiB at P = 4 1.24-1.29x against 1.09-1.10x). Where
// ranks share cores each hop waits for a scheduling slice (2-core VM, 256 KiB-1 MiB at P = 3 and
// 8: 1.2-1.6x native in segments, 0.98-1.05x whole).
constexpr std::int64_t kScanCutFrom = 512 * 1024;
constexpr int kScanCutMinRanks = 8;
constexpr std::int64_t kScanLong = 16 * 1024;
// Allreduce: Rabenseifner from 4 KiB, where a whole vector no longer fits an eager message of
// Open MPI's shared memory while its halves do (3.1x faster than recursive doubling at 4 KiB,
// P = 2, on the 2-core VM).
constexpr std::int64_t kAllreduceLong = 4 * 1024;
constexpr std::int64_t kAllgatherLong = 64 * 1024;  // ring above (Bruck below)
// All-to-all: Bruck for short blocks on many ranks (log2 p rounds), the linear exchange (one
// round) up to medium blocks, pairwise (p - 1 rounds, one message each way) for long ones: as
// Open MPI's and MPICH's defaults.
constexpr std::int64_t kAlltoallShort = 256;
constexpr int kAlltoallMaxLinearShortRanks = 12;
constexpr std::int64_t kAlltoallMedium = 32 * 1024;
// Allgatherv: Bruck for short vectors on 8 or more ranks (16 cores, up to 64 KiB in all: 0.51-0.99x
// native at P = 8 and 16 where the linear exchange took up to 1.7x), linear up to 4 MiB (as fast
// as the ring or faster on 16 cores, and on the 2-core VM), then the ring, whose one message
// in flight per rank suits long vectors on many ranks (0.56x native at 8 MiB, P = 8, on the VM).
constexpr int kAllgathervMinBruckRanks = 8;
constexpr std::int64_t kAllgathervShort = 64 * 1024;
constexpr std::int64_t kAllgathervLong = 4 * 1024 * 1024;
// Scatter: linear (each block sent once, straight from the root) from 32 KiB blocks, where the
// binomial tree's forwarding costs more than its fewer root sends save (0.6-0.8x binomial's time
// at 32 KiB-1 MiB, P = 4 and 8, on the 2-core VM; Open MPI switches likewise). Gather: linear
// from 4 KiB blocks, where a relay's gathered run no longer fits an eager message of Open MPI's
// shared memory (0.55-0.9x binomial's time at 4 KiB-1 MiB, P = 4 and 8, on the 2-core VM). On
// 8 or more ranks with cores of their own, the root's p - 1 rendezvous in a row cost more than the
// relays until 32 KiB (16 cores, 4 KiB: binomial 0.97x native at P = 8 and 0.83-0.85x at P = 16,
// linear 1.17-1.35x and 1.72-1.90x); where they share cores the relays wait for scheduling slices
// (the VM at P = 8, 4 KiB: binomial 0.96-1.32x, linear 0.74-0.86x).
constexpr std::int64_t kScatterLong = 32 * 1024;  // bytes per rank's block
constexpr std::int64_t kGatherLong = 4 * 1024;
constexpr std::int64_t kGatherLongManyRanks = 32 * 1024;
constexpr int kGatherManyRanks = 8;
// Reduce-scatter: pairwise (p - 1 rounds of one block) for long blocks, where recursive halving's
// rounds of half, a quarter ... of the vector outgrow the caches; below, recursive halving's
// log2 p rounds win. Where ranks share cores, from 32 KiB blocks (2-core VM, P = 8: recursive
// halving 0.4x pairwise's time at 8 KiB blocks, 0.66x at 16 KiB, 1.5-2.1x at 32 KiB; on 16 cores
// pairwise's 15 rounds took 2.2x native's time at 4 KiB, P = 16, when the threshold was 64 KiB of
// the whole vector). Ranks with cores of their own wait less for each of pairwise's p - 1 partners
// in turn than for a scheduling slice: there recursive halving wins at 32 KiB blocks (16 cores:
// 0.70-0.76x pairwise's time at P = 4 and 8, even at 16) and pairwise at 256 KiB (0.55-0.9x), so
// pairwise from 128 KiB, between the two.
constexpr std::int64_t kReduceScatterLongSharedCores = 32 * 1024;
constexpr std::int64_t kReduceScatterLong = 128 * 1024;

constexpr std::array kOperationNames{"barrier",
                                     "bcast",
                                     "reduce",
                                     "allreduce",
                                     "scan",
                                     "exscan",
                                     "gather",
                                     "gatherv",
                                     "scatter",
                                     "scatterv",
                                     "allgather",
                                     "allgatherv",
                                     "alltoall",
                                     "alltoallv",
                                     "reduce_scatter_block",
                                     "reduce_scatter",
                                     "alltoallw",
                                     "neighbor_allgather",
                                     "neighbor_allgatherv",
                                     "neighbor_alltoall",
                                     "neighbor_alltoallv",
                                     "neighbor_alltoallw"};
constexpr std::array kAlgorithmNames{"dissemination",
                                     "binomial",
                                     "scatter_allgather",
                                     "recursive_doubling",
                                     "rabenseifner",
                                     "ring",
                                     "bruck",
                                     "pairwise",
                                     "linear",
                                     "recursive_halving",
                                     "knomial",
                                     "pipelined_tree",
                                     "binary_tree",
                                     "multilevel",
                                     "native"};
static_assert(kOperationNames.size() == kOperationCount);
static_assert(kAlgorithmNames.size() == kAlgorithmCount);

// The block from which gather goes linear.
std::int64_t gather_linear_from(int size, bool cores_shared) {
  return size >= kGatherManyRanks && !cores_shared ? kGatherLongManyRanks : kGatherLong;
}

bool pipelined_tree_fits(std::int64_t bytes, int size, std::int64_t start, std::int64_t end) {
  return size >= kPipelinedTreeMinRanks && bytes >= start && bytes < end;
}

}  // namespace

std::string_view name_of(Operation operation) noexcept {
  return kOperationNames[static_cast<std::size_t>(operation)];
}

std::string_view name_of(Algorithm algorithm) noexcept {
  return kAlgorithmNames[static_cast<std::size_t>(algorithm)];
}

bool Selection::offers(Operation operation, Algorithm algorithm) noexcept {
  if (algorithm == kNative) return true;
  if (algorithm == kMultilevel)  // topo/operations.hpp, dispatched by the C API
    return operation == kBarrier || operation == kBcast || operation == kReduce ||
           operation == kAllreduce || operation == kScan || operation == kExscan ||
           operation == kGather || operation == kScatter || operation == kAllgather ||
           operation == kAlltoall;
  switch (operation) {
    case kBarrier:
      return algorithm == kDissemination || algorithm == kLinear;
    case kBcast:
      return algorithm == kBinomial || algorithm == kScatterAllgather || algorithm == kKnomial ||
             algorithm == kPipelinedTree;
    case kReduce:
      return algorithm == kBinomial || algorithm == kPipelinedTree;
    case kAllreduce:
      return algorithm == kRecursiveDoubling || algorithm == kRabenseifner || algorithm == kRing;
    case kScan:
    case kExscan:
      return algorithm == kRecursiveDoubling || algorithm == kBinaryTree || algorithm == kLinear;
    case kGather:
    case kScatter:
      return algorithm == kBinomial || algorithm == kLinear;
    case kGatherv:
    case kScatterv:
    case kAlltoallv:
    case kAlltoallw:
    case kNeighborAllgather:
    case kNeighborAllgatherv:
    case kNeighborAlltoall:
    case kNeighborAlltoallv:
    case kNeighborAlltoallw:
      return algorithm == kLinear;
    case kAllgather:
      return algorithm == kBruck || algorithm == kRing || algorithm == kRecursiveDoubling;
    case kAllgatherv:
      return algorithm == kRing || algorithm == kLinear || algorithm == kBruck;
    case kAlltoall:
      return algorithm == kPairwise || algorithm == kBruck || algorithm == kLinear;
    case kReduceScatterBlock:
    case kReduceScatter:
      return algorithm == kRecursiveHalving || algorithm == kPairwise;
  }
  return false;
}

bool Selection::multilevel_by_default(Operation operation) noexcept {
  // The seed's five, allreduce, allgather and the scans. All-to-all by leaders funnels every
  // block of a cluster through one rank: a bandwidth loss on large clusters, so on request only.
  return offers(operation, kMultilevel) && operation != kAlltoall;
}

void Selection::force(Operation operation, std::optional<Algorithm> algorithm) {
  if (algorithm && !offers(operation, *algorithm))
    throw Error(ErrorClass::kArg, std::string(name_of(operation)) + " has no algorithm '" +
                                      std::string(name_of(*algorithm)) + "'");
  forced_[static_cast<std::size_t>(operation)] = algorithm;
}

namespace {

// SCOMM_COLL_SEGMENT: bytes, a whole number from 1 to 2^30; unset or empty: none.
std::optional<std::int64_t> segment_bytes_from_environment() {
  const char* value = std::getenv("SCOMM_COLL_SEGMENT");
  if (value == nullptr || *value == '\0') return std::nullopt;
  const std::string_view text(value);
  std::int64_t bytes = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (error != std::errc() || end != text.data() + text.size() || bytes < 1 ||
      bytes > (std::int64_t{1} << 30))
    throw Error(ErrorClass::kArg, "SCOMM_COLL_SEGMENT: '" + std::string(text) +
                                      "' is not a segment size in bytes (1 to 2^30)");
  return bytes;
}

}  // namespace

Selection Selection::from_environment() {
  Selection selection;
  selection.segment_bytes_ = segment_bytes_from_environment();
  for (std::size_t o = 0; o < kOperationNames.size(); ++o) {
    std::string variable = "SCOMM_COLL_";
    for (const char c : std::string_view(kOperationNames[o]))
      variable += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const char* value = std::getenv(variable.c_str());
    if (value == nullptr || *value == '\0') continue;
    std::optional<Algorithm> found;
    for (std::size_t a = 0; a < kAlgorithmNames.size(); ++a)
      if (kAlgorithmNames[a] == std::string_view(value)) found = static_cast<Algorithm>(a);
    if (!found)
      throw Error(ErrorClass::kArg, variable + ": unknown algorithm '" + std::string(value) + "'");
    selection.force(static_cast<Operation>(o), found);
  }
  return selection;
}

bool Selection::goes_in_eager_segments(std::int64_t bytes) const noexcept {
  return !cores_shared_ && bytes >= kEagerSegmentFrom && bytes < kEagerSegmentBelow;
}

std::int64_t Selection::bcast_segment_bytes(std::int64_t bytes) const noexcept {
  if (segment_bytes_) return *segment_bytes_;
  if (goes_in_eager_segments(bytes)) return kEagerSegmentBytes;
  return bytes >= kBcastLongSegmentFrom ? kBcastLongSegmentBytes : kPipelineSegmentBytes;
}

bool Selection::reduce_goes_in_eager_segments(std::int64_t bytes, int size) const noexcept {
  return size <= kReduceEagerSegmentsMaxRanks && goes_in_eager_segments(bytes);
}

std::int64_t Selection::reduce_segment_bytes(std::int64_t bytes, int size) const noexcept {
  if (segment_bytes_) return *segment_bytes_;
  return reduce_goes_in_eager_segments(bytes, size) ? kEagerSegmentBytes : kPipelineSegmentBytes;
}

bool Selection::cuts_scan_chain(std::int64_t bytes, int size) const noexcept {
  return !cores_shared_ && size >= kScanCutMinRanks && bytes >= kScanCutFrom;
}

std::int64_t Selection::scan_chain_segment(std::int64_t bytes, std::int64_t count,
                                           int size) const noexcept {
  if (cuts_scan_chain(bytes, size)) return segment_elements(bytes, count, segment_bytes());
  return std::max<std::int64_t>(count, 1);
}

Algorithm Selection::choose(Operation operation, std::int64_t bytes, int size,
                            bool commutative) const {
  if (const auto& forced = forced_[static_cast<std::size_t>(operation)]) return *forced;
  return table_choice(operation, bytes, size, commutative);
}

Algorithm Selection::table_choice(Operation operation, std::int64_t bytes, int size,
                                  bool commutative) const {
  const bool pow2 = (size & (size - 1)) == 0;
  switch (operation) {
    case kBarrier:
      return size >= kBarrierLinearMinRanks && size <= kBarrierLinearMaxRanks ? kLinear
                                                                              : kDissemination;
    case kBcast:
      if (size >= kBcastPipelinedAlwaysRanks) return kPipelinedTree;
      if (cores_shared_ && size < kBcastMinScatterRanks && bytes >= kBcastSharedKnomialFrom &&
          bytes < kBcastLong)
        return kKnomial;
      if (!cores_shared_ && bytes >= kBcastLong && size >= kBcastMinScatterRanks)
        return kScatterAllgather;
      return pipelined_tree_fits(bytes, size, 0, kBcastPipelinedEnd) ||
                     goes_in_eager_segments(bytes)
                 ? kPipelinedTree
                 : kBinomial;
    case kAllreduce:
      // Rabenseifner splits the vector into pieces per rank; with fewer elements than ranks,
      // or a non-commutative operation, recursive doubling is the safe choice.
      return bytes >= kAllreduceLong && commutative ? kRabenseifner : kRecursiveDoubling;
    case kAllgather:
      if (bytes >= kAllgatherLong) return kRing;
      return pow2 ? kRecursiveDoubling : kBruck;
    case kAlltoall:
      if (bytes <= kAlltoallShort && size > kAlltoallMaxLinearShortRanks) return kBruck;
      return bytes <= kAlltoallMedium ? kLinear : kPairwise;
    case kReduceScatterBlock:
    case kReduceScatter:
      return bytes >= (cores_shared_ ? kReduceScatterLongSharedCores : kReduceScatterLong) &&
                     commutative
                 ? kPairwise
                 : kRecursiveHalving;
    case kReduce:
      return reduce_goes_in_eager_segments(bytes, size) ||
                     (!cores_shared_ &&
                      pipelined_tree_fits(bytes, size, kReducePipelinedStart, kReducePipelinedEnd))
                 ? kPipelinedTree
                 : kBinomial;
    case kGather:
      return bytes >= gather_linear_from(size, cores_shared_) ? kLinear : kBinomial;
    case kScatter:
      return bytes >= kScatterLong ? kLinear : kBinomial;
    case kScan:
    case kExscan:
      if (size <= kScanMaxChainRanks) return kLinear;
      return bytes >= kScanLong ? kBinaryTree : kRecursiveDoubling;
    case kGatherv:
    case kScatterv:
    case kAlltoallv:
    case kAlltoallw:
    case kNeighborAllgather:
    case kNeighborAllgatherv:
    case kNeighborAlltoall:
    case kNeighborAlltoallv:
    case kNeighborAlltoallw:
      return kLinear;
    case kAllgatherv:
      if (bytes <= kAllgathervShort && size >= kAllgathervMinBruckRanks) return kBruck;
      return bytes <= kAllgathervLong ? kLinear : kRing;
  }
  return kLinear;
}

}  // namespace scomm::coll
