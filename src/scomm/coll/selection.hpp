// Which algorithm runs a collective: one table for every operation (selection.cpp), by message
// size and communicator size, overridable per operation from the environment:
// SCOMM_COLL_<OPERATION>=<algorithm>, e.g. SCOMM_COLL_BCAST=binomial, SCOMM_COLL_ALLREDUCE=ring;
// "native" runs the base MPI's own collective on an MPI communicator with the same members, made
// on the communicator's first native call.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "scomm/coll/segments.hpp"

namespace scomm::coll {

enum class Operation : std::uint8_t {
  kBarrier,
  kBcast,
  kReduce,
  kAllreduce,
  kScan,
  kExscan,
  kGather,
  kGatherv,
  kScatter,
  kScatterv,
  kAllgather,
  kAllgatherv,
  kAlltoall,
  kAlltoallv,
  kReduceScatterBlock,
  kReduceScatter,
  kAlltoallw,
  // The neighborhood collectives, on communicators with a virtual topology.
  kNeighborAllgather,
  kNeighborAllgatherv,
  kNeighborAlltoall,
  kNeighborAlltoallv,
  kNeighborAlltoallw,
};
inline constexpr std::size_t kOperationCount = 22;

// Whether `operation` exchanges with the caller's neighbors in a virtual topology only.
constexpr bool is_neighborhood(Operation operation) noexcept {
  return operation >= Operation::kNeighborAllgather;
}

enum class Algorithm : std::uint8_t {
  kDissemination,
  kBinomial,
  kScatterAllgather,  // van de Geijn: binomial scatter, then ring allgather
  kRecursiveDoubling,
  kRabenseifner,  // reduce-scatter by recursive halving, then allgather by recursive doubling
  kRing,
  kBruck,
  kPairwise,
  kLinear,
  kRecursiveHalving,
  kKnomial,        // k-nomial tree (radix 4)
  kPipelinedTree,  // segments down (bcast) or up (reduce) a binary tree
  kBinaryTree,     // in-order binary tree, up then down (scan, exscan)
  kMultilevel,     // the communicator's topology levels (topo/): on request, or by default
                   // where the user named levels (multilevel_by_default)
  kNative,         // the base MPI's own collective on the communicator's MPI twin
};
inline constexpr std::size_t kAlgorithmCount = 15;

std::string_view name_of(Operation operation) noexcept;
std::string_view name_of(Algorithm algorithm) noexcept;

class Selection {
 public:
  // Reads SCOMM_COLL_<OPERATION> for every operation; throws Error(kArg) for an unknown
  // algorithm or one the operation does not have.
  static Selection from_environment();

  // Forces `algorithm` for `operation` (nullopt: back to the table). Throws Error(kArg) when
  // the operation has no such algorithm.
  void force(Operation operation, std::optional<Algorithm> algorithm);
  // The algorithm for a call moving `bytes` per rank (the vector of a reduction, one block of
  // an all-to-all) among `size` ranks; `commutative`: the reduction's operation is.
  Algorithm choose(Operation operation, std::int64_t bytes, int size,
                   bool commutative = true) const;
  // choose() without SCOMM_COLL_<OPERATION>: the table's own algorithm.
  Algorithm table_choice(Operation operation, std::int64_t bytes, int size,
                         bool commutative = true) const;
  // Whether `operation` has an implementation of `algorithm`.
  static bool offers(Operation operation, Algorithm algorithm) noexcept;
  // The algorithm SCOMM_COLL_<OPERATION> (or force) asks for, if any.
  std::optional<Algorithm> forced(Operation operation) const noexcept {
    return forced_[static_cast<std::size_t>(operation)];
  }
  // Whether `operation` runs its multilevel schedule unforced, where the user named network
  // levels and the communicator spans several of their clusters (topo/multilevel_default.hpp).
  static bool multilevel_by_default(Operation operation) noexcept;

  // Whether ranks share cores (topo/core_sharing.hpp, set at SCOMM_Init, the same at every rank):
  // a pipeline's stages then wait for ranks that are not running, so the table keeps to fewer,
  // longer steps (the scan chain in one piece, reduce-scatter's pairwise exchange sooner).
  void set_cores_shared(bool shared) noexcept { cores_shared_ = shared; }
  bool cores_shared() const noexcept { return cores_shared_; }
  // Whether the scan chain of `bytes` per rank among `size` ranks goes in segments.
  bool cuts_scan_chain(std::int64_t bytes, int size) const noexcept;
  // The scan chain's segment in elements for `count` elements of `bytes` in all among `size`
  // ranks: segment_bytes() worth where the chain goes in segments, else the whole vector.
  std::int64_t scan_chain_segment(std::int64_t bytes, std::int64_t count, int size) const noexcept;
  // The pipelined schedules' segment (reduce up the binary tree, the scan chain):
  // kPipelineSegmentBytes, or SCOMM_COLL_SEGMENT bytes (a whole number from 1).
  std::int64_t segment_bytes() const noexcept {
    return segment_bytes_.value_or(kPipelineSegmentBytes);
  }
  // Whether a bcast of `bytes` goes in segments that each fit an eager message, where the whole
  // vector just misses one: on ranks with cores of their own, however many.
  bool goes_in_eager_segments(std::int64_t bytes) const noexcept;
  // Whether a reduce of `bytes` among `size` ranks does: as a bcast, on two ranks only.
  bool reduce_goes_in_eager_segments(std::int64_t bytes, int size) const noexcept;
  // The segment of a pipelined bcast of `bytes`: shorter just above an eager message on ranks
  // with cores of their own, longer for long vectors, or SCOMM_COLL_SEGMENT.
  std::int64_t bcast_segment_bytes(std::int64_t bytes) const noexcept;
  // The segment of a pipelined reduce of `bytes` among `size` ranks: shorter just above an eager
  // message on two ranks with cores of their own, else segment_bytes().
  std::int64_t reduce_segment_bytes(std::int64_t bytes, int size) const noexcept;

 private:
  std::array<std::optional<Algorithm>, kOperationCount> forced_{};
  bool cores_shared_ = false;
  std::optional<std::int64_t> segment_bytes_;  // SCOMM_COLL_SEGMENT
};

}  // namespace scomm::coll
