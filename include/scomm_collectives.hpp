// The collectives of scomm::Communicator, part of the C++ interface (scomm.hpp includes this
// header where its parts are defined; include scomm.hpp): every MPI collective, blocking,
// nonblocking (`i` forms returning a Request) and persistent (MPI-4's `_init` forms returning a
// PersistentRequest that runs the same collective on the same buffers at each start), on
// contiguous ranges whose element type names the datatype (the w-forms: a datatype per block,
// displacements in bytes).
//
//   std::vector<double> mine(4, world.rank()), all(4 * world.size());
//   world.allgather(mine, all);                        // block r of `all` from rank r
//   scomm::Request pending = world.iallreduce(mine, sums, MPI_SUM);
//
// Counts come from the ranges: a buffer too small for what the call moves throws
// std::length_error before anything is sent. The v-forms take MPI's count and displacement
// arrays (spans of one int per member, or per neighbor), where MPI reads them; as in MPI, a
// nonblocking or persistent call's buffers and arrays must stay valid until its request
// completes (or is freed).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>

namespace scomm::detail {

// Throws std::length_error where `have` elements (or bytes) are fewer than the `need` the call
// moves.
inline void require_room(std::size_t have, std::size_t need, const char* what,
                         const char* unit = "elements") {
  if (have < need)
    throw std::length_error(std::string("scomm: ") + what + " holds " + std::to_string(have) + " " +
                            unit + " where the call needs " + std::to_string(need));
}

// The bytes a range spans.
template <typename R>
std::size_t bytes_of(const R& range) {
  return std::ranges::size(range) * sizeof(std::ranges::range_value_t<R>);
}

// The elements a v-form's arrays reach: max over i of displs[i] + counts[i], after checking
// that both hold one entry per member and that no block starts before the range. (A negative
// count is left to the C API, which says so.)
inline std::size_t extent_of(std::span<const int> counts, std::span<const int> displs,
                             std::size_t n, const char* what) {
  if (counts.size() != n || displs.size() != n)
    throw std::length_error(std::string("scomm: ") + what +
                            ": counts and displacements need one entry per member or neighbor");
  std::size_t extent = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (counts[i] <= 0) continue;
    if (displs[i] < 0)
      throw std::length_error(std::string("scomm: ") + what + ": a block before the range");
    extent =
        std::max(extent, static_cast<std::size_t>(displs[i]) + static_cast<std::size_t>(counts[i]));
  }
  return extent;
}

// The bytes a w-form's arrays reach: max over i of the end of counts[i] elements of types[i] at
// byte displacement displs[i] (the types' true extents: a resized type's padding after its last
// element is not touched), after checking that the arrays hold one entry per member and that no
// block starts before the buffer. MPI_DATATYPE_NULL is left to the C API, which says so.
template <typename Displacement>
std::size_t byte_extent_of(std::span<const int> counts, std::span<const Displacement> displs,
                           std::span<const MPI_Datatype> types, std::size_t n, const char* what) {
  if (counts.size() != n || displs.size() != n || types.size() != n)
    throw std::length_error(std::string("scomm: ") + what +
                            ": counts, displacements and types need one entry per member or "
                            "neighbor");
  MPI_Aint extent = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (counts[i] <= 0 || types[i] == MPI_DATATYPE_NULL) continue;
    MPI_Aint lb = 0, stride = 0, true_lb = 0, true_extent = 0;
    MPI_Type_get_extent(types[i], &lb, &stride);
    MPI_Type_get_true_extent(types[i], &true_lb, &true_extent);
    const MPI_Aint span = static_cast<MPI_Aint>(counts[i] - 1) * stride;
    const MPI_Aint first = displs[i] + true_lb + std::min<MPI_Aint>(span, 0);
    if (first < 0)
      throw std::length_error(std::string("scomm: ") + what + ": a block before the buffer");
    extent = std::max(extent, first + std::abs(span) + true_extent);
  }
  return static_cast<std::size_t>(extent);
}

// The elements of all positive counts.
inline std::size_t total_of(std::span<const int> counts) {
  std::size_t total = 0;
  for (const int count : counts) total += count > 0 ? static_cast<std::size_t>(count) : 0;
  return total;
}

// A reduction's input and output hold one element type: MPI reduces both with one datatype.
template <typename R, typename S>
concept same_elements =
    std::is_same_v<std::ranges::range_value_t<R>, std::ranges::range_value_t<S>>;

template <typename R>
auto* data_of(R&& range) {
  return std::ranges::data(range);
}

// The collective members of Communicator (CRTP: `Comm` gives checked_handle(), rank() and size()).
// Each operation's arguments are translated once (its *_args function), then run blocking, started
// or made persistent.
template <typename Comm>
class Collectives {
 public:
  void barrier() const { run<SCOMM_Barrier>(std::tuple<>{}); }
  Request ibarrier() const { return start<SCOMM_Ibarrier>(std::tuple<>{}); }
  PersistentRequest barrier_init() const { return prepare<SCOMM_Barrier_init>(std::tuple<>{}); }

  // Every member's `data` gets the root's.
  template <std::ranges::contiguous_range R>
  void bcast(R&& data, int root = 0) const {
    run<SCOMM_Bcast>(bcast_args(data, root));
  }
  template <kept_range R>
  Request ibcast(R&& data, int root = 0) const {
    return start<SCOMM_Ibcast>(bcast_args(data, root));
  }
  template <kept_range R>
  PersistentRequest bcast_init(R&& data, int root = 0) const {
    return prepare<SCOMM_Bcast_init>(bcast_args(data, root));
  }

  // The root's `out` (as long as `in`; ignored elsewhere) gets the reduction of every `in`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  requires same_elements<R, S>
  void reduce(const R& in, S&& out, MPI_Op op, int root = 0) const {
    run<SCOMM_Reduce>(reduce_args(in, out, op, root));
  }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> Request ireduce(R&& in, S&& out, MPI_Op op, int root = 0)
  const { return start<SCOMM_Ireduce>(reduce_args(in, out, op, root)); }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> PersistentRequest reduce_init(R&& in, S&& out, MPI_Op op,
                                                             int root = 0)
  const { return prepare<SCOMM_Reduce_init>(reduce_args(in, out, op, root)); }
  // The root's `data` becomes the reduction of every member's `data` (MPI_IN_PLACE at the root).
  template <std::ranges::contiguous_range R>
  void reduce_in_place(R&& data, MPI_Op op, int root = 0) const {
    const bool at_root = self().rank() == root;
    run<SCOMM_Reduce>(std::tuple(at_root ? SCOMM_IN_PLACE : data_of(data),
                                 at_root ? data_of(data) : nullptr, count_of(data), type_of(data),
                                 op, root));
  }

  // `out` (as long as `in`) gets the reduction of every member's `in`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  requires same_elements<R, S>
  void allreduce(const R& in, S&& out, MPI_Op op) const {
    run<SCOMM_Allreduce>(elementwise_args(in, out, op, "allreduce"));
  }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> Request iallreduce(R&& in, S&& out, MPI_Op op)
  const { return start<SCOMM_Iallreduce>(elementwise_args(in, out, op, "iallreduce")); }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> PersistentRequest allreduce_init(R&& in, S&& out, MPI_Op op)
  const { return prepare<SCOMM_Allreduce_init>(elementwise_args(in, out, op, "allreduce_init")); }
  template <typename T>
  T allreduce(const T& value, MPI_Op op) const {
    T result{};
    run<SCOMM_Allreduce>(std::tuple(&value, &result, 1, datatype<T>(), op));
    return result;
  }
  template <std::ranges::contiguous_range R>
  void allreduce_in_place(R&& data, MPI_Op op) const {
    run<SCOMM_Allreduce>(
        std::tuple(SCOMM_IN_PLACE, data_of(data), count_of(data), type_of(data), op));
  }

  // `out` (as long as `in`) gets the reduction of `in` over ranks 0..rank (scan) or
  // 0..rank - 1 (exscan; rank 0's `out` is left as it is).
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  requires same_elements<R, S>
  void scan(const R& in, S&& out, MPI_Op op) const {
    run<SCOMM_Scan>(elementwise_args(in, out, op, "scan"));
  }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> Request iscan(R&& in, S&& out, MPI_Op op)
  const { return start<SCOMM_Iscan>(elementwise_args(in, out, op, "iscan")); }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> PersistentRequest scan_init(R&& in, S&& out, MPI_Op op)
  const { return prepare<SCOMM_Scan_init>(elementwise_args(in, out, op, "scan_init")); }
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  requires same_elements<R, S>
  void exscan(const R& in, S&& out, MPI_Op op) const {
    run<SCOMM_Exscan>(elementwise_args(in, out, op, "exscan"));
  }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> Request iexscan(R&& in, S&& out, MPI_Op op)
  const { return start<SCOMM_Iexscan>(elementwise_args(in, out, op, "iexscan")); }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> PersistentRequest exscan_init(R&& in, S&& out, MPI_Op op)
  const { return prepare<SCOMM_Exscan_init>(elementwise_args(in, out, op, "exscan_init")); }
  // The inclusive prefix over the ranks up to this one.
  template <typename T>
  T scan(const T& value, MPI_Op op) const {
    T result{};
    run<SCOMM_Scan>(std::tuple(&value, &result, 1, datatype<T>(), op));
    return result;
  }

  // The root's `all` gets every member's `mine` (all of one length), rank r's as block r.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void gather(const R& mine, S&& all, int root = 0) const {
    run<SCOMM_Gather>(gather_args(mine, all, root, "gather"));
  }
  template <kept_range R, kept_range S>
  Request igather(R&& mine, S&& all, int root = 0) const {
    return start<SCOMM_Igather>(gather_args(mine, all, root, "igather"));
  }
  template <kept_range R, kept_range S>
  PersistentRequest gather_init(R&& mine, S&& all, int root = 0) const {
    return prepare<SCOMM_Gather_init>(gather_args(mine, all, root, "gather_init"));
  }
  // Rank r's `mine` (counts[r] elements) to displs[r] of the root's `all`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void gatherv(const R& mine, S&& all, std::span<const int> counts, std::span<const int> displs,
               int root = 0) const {
    run<SCOMM_Gatherv>(gatherv_args(mine, all, counts, displs, root));
  }
  template <kept_range R, kept_range S>
  Request igatherv(R&& mine, S&& all, std::span<const int> counts, std::span<const int> displs,
                   int root = 0) const {
    return start<SCOMM_Igatherv>(gatherv_args(mine, all, counts, displs, root));
  }
  template <kept_range R, kept_range S>
  PersistentRequest gatherv_init(R&& mine, S&& all, std::span<const int> counts,
                                 std::span<const int> displs, int root = 0) const {
    return prepare<SCOMM_Gatherv_init>(gatherv_args(mine, all, counts, displs, root));
  }

  // Block r of the root's `all` to rank r's `mine` (all of one length).
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void scatter(const R& all, S&& mine, int root = 0) const {
    run<SCOMM_Scatter>(scatter_args(all, mine, root, "scatter"));
  }
  template <kept_range R, kept_range S>
  Request iscatter(R&& all, S&& mine, int root = 0) const {
    return start<SCOMM_Iscatter>(scatter_args(all, mine, root, "iscatter"));
  }
  template <kept_range R, kept_range S>
  PersistentRequest scatter_init(R&& all, S&& mine, int root = 0) const {
    return prepare<SCOMM_Scatter_init>(scatter_args(all, mine, root, "scatter_init"));
  }
  // counts[r] elements at displs[r] of the root's `all` to rank r's `mine`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void scatterv(const R& all, std::span<const int> counts, std::span<const int> displs, S&& mine,
                int root = 0) const {
    run<SCOMM_Scatterv>(scatterv_args(all, counts, displs, mine, root));
  }
  template <kept_range R, kept_range S>
  Request iscatterv(R&& all, std::span<const int> counts, std::span<const int> displs, S&& mine,
                    int root = 0) const {
    return start<SCOMM_Iscatterv>(scatterv_args(all, counts, displs, mine, root));
  }
  template <kept_range R, kept_range S>
  PersistentRequest scatterv_init(R&& all, std::span<const int> counts, std::span<const int> displs,
                                  S&& mine, int root = 0) const {
    return prepare<SCOMM_Scatterv_init>(scatterv_args(all, counts, displs, mine, root));
  }

  // Every member's `all` gets every `mine` (all of one length), rank r's as block r.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void allgather(const R& mine, S&& all) const {
    run<SCOMM_Allgather>(blocks_args(mine, all, true, "allgather"));
  }
  template <kept_range R, kept_range S>
  Request iallgather(R&& mine, S&& all) const {
    return start<SCOMM_Iallgather>(blocks_args(mine, all, true, "iallgather"));
  }
  template <kept_range R, kept_range S>
  PersistentRequest allgather_init(R&& mine, S&& all) const {
    return prepare<SCOMM_Allgather_init>(blocks_args(mine, all, true, "allgather_init"));
  }
  // Every rank's value, in rank order.
  template <typename T>
  std::vector<T> allgather(const T& value) const {
    std::vector<T> all(static_cast<std::size_t>(self().size()));
    allgather(std::span<const T>(&value, 1), all);
    return all;
  }
  // Rank r's `mine` (counts[r] elements) to displs[r] of every member's `all`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void allgatherv(const R& mine, S&& all, std::span<const int> counts,
                  std::span<const int> displs) const {
    run<SCOMM_Allgatherv>(allgatherv_args(mine, all, counts, displs));
  }
  template <kept_range R, kept_range S>
  Request iallgatherv(R&& mine, S&& all, std::span<const int> counts,
                      std::span<const int> displs) const {
    return start<SCOMM_Iallgatherv>(allgatherv_args(mine, all, counts, displs));
  }
  template <kept_range R, kept_range S>
  PersistentRequest allgatherv_init(R&& mine, S&& all, std::span<const int> counts,
                                    std::span<const int> displs) const {
    return prepare<SCOMM_Allgatherv_init>(allgatherv_args(mine, all, counts, displs));
  }

  // Block j of `out` to rank j, rank i's block for this one into block i of `in` (`out` and `in`
  // of one length, a multiple of the size).
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void alltoall(const R& out, S&& in) const {
    run<SCOMM_Alltoall>(alltoall_args(out, in));
  }
  template <kept_range R, kept_range S>
  Request ialltoall(R&& out, S&& in) const {
    return start<SCOMM_Ialltoall>(alltoall_args(out, in));
  }
  template <kept_range R, kept_range S>
  PersistentRequest alltoall_init(R&& out, S&& in) const {
    return prepare<SCOMM_Alltoall_init>(alltoall_args(out, in));
  }
  // sendcounts[j] elements at sdispls[j] of `out` to rank j; rank i's into rdispls[i] of `in`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void alltoallv(const R& out, std::span<const int> sendcounts, std::span<const int> sdispls,
                 S&& in, std::span<const int> recvcounts, std::span<const int> rdispls) const {
    run<SCOMM_Alltoallv>(alltoallv_args(out, sendcounts, sdispls, in, recvcounts, rdispls));
  }
  template <kept_range R, kept_range S>
  Request ialltoallv(R&& out, std::span<const int> sendcounts, std::span<const int> sdispls, S&& in,
                     std::span<const int> recvcounts, std::span<const int> rdispls) const {
    return start<SCOMM_Ialltoallv>(
        alltoallv_args(out, sendcounts, sdispls, in, recvcounts, rdispls));
  }
  template <kept_range R, kept_range S>
  PersistentRequest alltoallv_init(R&& out, std::span<const int> sendcounts,
                                   std::span<const int> sdispls, S&& in,
                                   std::span<const int> recvcounts,
                                   std::span<const int> rdispls) const {
    return prepare<SCOMM_Alltoallv_init>(
        alltoallv_args(out, sendcounts, sdispls, in, recvcounts, rdispls));
  }
  // sendcounts[j] elements of sendtypes[j] at byte sdispls[j] of `out` to rank j; rank i's as
  // recvcounts[i] elements of recvtypes[i] at byte rdispls[i] of `in`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void alltoallw(const R& out, std::span<const int> sendcounts, std::span<const int> sdispls,
                 std::span<const MPI_Datatype> sendtypes, S&& in, std::span<const int> recvcounts,
                 std::span<const int> rdispls, std::span<const MPI_Datatype> recvtypes) const {
    run<SCOMM_Alltoallw>(alltoallw_args(out, {sendcounts, sdispls, sendtypes}, in,
                                        {recvcounts, rdispls, recvtypes}));
  }
  template <kept_range R, kept_range S>
  Request ialltoallw(R&& out, std::span<const int> sendcounts, std::span<const int> sdispls,
                     std::span<const MPI_Datatype> sendtypes, S&& in,
                     std::span<const int> recvcounts, std::span<const int> rdispls,
                     std::span<const MPI_Datatype> recvtypes) const {
    return start<SCOMM_Ialltoallw>(alltoallw_args(out, {sendcounts, sdispls, sendtypes}, in,
                                                  {recvcounts, rdispls, recvtypes}));
  }
  template <kept_range R, kept_range S>
  PersistentRequest alltoallw_init(R&& out, std::span<const int> sendcounts,
                                   std::span<const int> sdispls,
                                   std::span<const MPI_Datatype> sendtypes, S&& in,
                                   std::span<const int> recvcounts, std::span<const int> rdispls,
                                   std::span<const MPI_Datatype> recvtypes) const {
    return prepare<SCOMM_Alltoallw_init>(alltoallw_args(out, {sendcounts, sdispls, sendtypes}, in,
                                                        {recvcounts, rdispls, recvtypes}));
  }

  // Block r (as long as `out`) of the reduction of every member's `in` to rank r's `out`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  requires same_elements<R, S>
  void reduce_scatter_block(const R& in, S&& out, MPI_Op op) const {
    run<SCOMM_Reduce_scatter_block>(reduce_scatter_block_args(in, out, op));
  }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> Request ireduce_scatter_block(R&& in, S&& out, MPI_Op op)
  const { return start<SCOMM_Ireduce_scatter_block>(reduce_scatter_block_args(in, out, op)); }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> PersistentRequest reduce_scatter_block_init(R&& in, S&& out,
                                                                           MPI_Op op)
  const { return prepare<SCOMM_Reduce_scatter_block_init>(reduce_scatter_block_args(in, out, op)); }
  // The reduction of every member's `in` in pieces of recvcounts[r] elements, rank r's to its
  // `out`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  requires same_elements<R, S>
  void reduce_scatter(const R& in, S&& out, std::span<const int> recvcounts, MPI_Op op) const {
    run<SCOMM_Reduce_scatter>(reduce_scatter_args(in, out, recvcounts, op));
  }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> Request ireduce_scatter(R&& in, S&& out,
                                                       std::span<const int> recvcounts, MPI_Op op)
  const { return start<SCOMM_Ireduce_scatter>(reduce_scatter_args(in, out, recvcounts, op)); }
  template <kept_range R, kept_range S>
  requires same_elements<R, S> PersistentRequest
  reduce_scatter_init(R&& in, S&& out, std::span<const int> recvcounts, MPI_Op op)
  const { return prepare<SCOMM_Reduce_scatter_init>(reduce_scatter_args(in, out, recvcounts, op)); }

  // Neighborhood collectives, on a communicator with a virtual topology (a grid's neighbors are
  // 2 per dimension, MPI_PROC_NULL past an edge; a graph's as it was made). Block i of `out`
  // (`count` elements each) to out-neighbor i, in-neighbor i's into block i of `in`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void neighbor_alltoall(const R& out, S&& in, int count) const {
    run<SCOMM_Neighbor_alltoall>(neighbor_alltoall_args(out, in, count));
  }
  template <kept_range R, kept_range S>
  Request ineighbor_alltoall(R&& out, S&& in, int count) const {
    return start<SCOMM_Ineighbor_alltoall>(neighbor_alltoall_args(out, in, count));
  }
  template <kept_range R, kept_range S>
  PersistentRequest neighbor_alltoall_init(R&& out, S&& in, int count) const {
    return prepare<SCOMM_Neighbor_alltoall_init>(neighbor_alltoall_args(out, in, count));
  }
  // sendcounts[j] elements at sdispls[j] of `out` to out-neighbor j; in-neighbor i's into
  // rdispls[i] of `in` (arrays of one entry per neighbor).
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void neighbor_alltoallv(const R& out, std::span<const int> sendcounts,
                          std::span<const int> sdispls, S&& in, std::span<const int> recvcounts,
                          std::span<const int> rdispls) const {
    run<SCOMM_Neighbor_alltoallv>(
        neighbor_alltoallv_args(out, sendcounts, sdispls, in, recvcounts, rdispls));
  }
  template <kept_range R, kept_range S>
  Request ineighbor_alltoallv(R&& out, std::span<const int> sendcounts,
                              std::span<const int> sdispls, S&& in, std::span<const int> recvcounts,
                              std::span<const int> rdispls) const {
    return start<SCOMM_Ineighbor_alltoallv>(
        neighbor_alltoallv_args(out, sendcounts, sdispls, in, recvcounts, rdispls));
  }
  template <kept_range R, kept_range S>
  PersistentRequest neighbor_alltoallv_init(R&& out, std::span<const int> sendcounts,
                                            std::span<const int> sdispls, S&& in,
                                            std::span<const int> recvcounts,
                                            std::span<const int> rdispls) const {
    return prepare<SCOMM_Neighbor_alltoallv_init>(
        neighbor_alltoallv_args(out, sendcounts, sdispls, in, recvcounts, rdispls));
  }
  // sendcounts[j] elements of sendtypes[j] at byte sdispls[j] of `out` to out-neighbor j;
  // in-neighbor i's as recvcounts[i] elements of recvtypes[i] at byte rdispls[i] of `in`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void neighbor_alltoallw(const R& out, std::span<const int> sendcounts,
                          std::span<const MPI_Aint> sdispls,
                          std::span<const MPI_Datatype> sendtypes, S&& in,
                          std::span<const int> recvcounts, std::span<const MPI_Aint> rdispls,
                          std::span<const MPI_Datatype> recvtypes) const {
    run<SCOMM_Neighbor_alltoallw>(neighbor_alltoallw_args(out, {sendcounts, sdispls, sendtypes}, in,
                                                          {recvcounts, rdispls, recvtypes}));
  }
  template <kept_range R, kept_range S>
  Request ineighbor_alltoallw(R&& out, std::span<const int> sendcounts,
                              std::span<const MPI_Aint> sdispls,
                              std::span<const MPI_Datatype> sendtypes, S&& in,
                              std::span<const int> recvcounts, std::span<const MPI_Aint> rdispls,
                              std::span<const MPI_Datatype> recvtypes) const {
    return start<SCOMM_Ineighbor_alltoallw>(neighbor_alltoallw_args(
        out, {sendcounts, sdispls, sendtypes}, in, {recvcounts, rdispls, recvtypes}));
  }
  template <kept_range R, kept_range S>
  PersistentRequest neighbor_alltoallw_init(R&& out, std::span<const int> sendcounts,
                                            std::span<const MPI_Aint> sdispls,
                                            std::span<const MPI_Datatype> sendtypes, S&& in,
                                            std::span<const int> recvcounts,
                                            std::span<const MPI_Aint> rdispls,
                                            std::span<const MPI_Datatype> recvtypes) const {
    return prepare<SCOMM_Neighbor_alltoallw_init>(neighbor_alltoallw_args(
        out, {sendcounts, sdispls, sendtypes}, in, {recvcounts, rdispls, recvtypes}));
  }
  // All of `mine` to every out-neighbor; in-neighbor i's into block i of `in`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void neighbor_allgather(const R& mine, S&& in) const {
    run<SCOMM_Neighbor_allgather>(neighbor_allgather_args(mine, in));
  }
  template <kept_range R, kept_range S>
  Request ineighbor_allgather(R&& mine, S&& in) const {
    return start<SCOMM_Ineighbor_allgather>(neighbor_allgather_args(mine, in));
  }
  template <kept_range R, kept_range S>
  PersistentRequest neighbor_allgather_init(R&& mine, S&& in) const {
    return prepare<SCOMM_Neighbor_allgather_init>(neighbor_allgather_args(mine, in));
  }
  // All of `mine` to every out-neighbor; in-neighbor i's (recvcounts[i] elements) into
  // displs[i] of `in`.
  template <std::ranges::contiguous_range R, std::ranges::contiguous_range S>
  void neighbor_allgatherv(const R& mine, S&& in, std::span<const int> recvcounts,
                           std::span<const int> displs) const {
    run<SCOMM_Neighbor_allgatherv>(neighbor_allgatherv_args(mine, in, recvcounts, displs));
  }
  template <kept_range R, kept_range S>
  Request ineighbor_allgatherv(R&& mine, S&& in, std::span<const int> recvcounts,
                               std::span<const int> displs) const {
    return start<SCOMM_Ineighbor_allgatherv>(
        neighbor_allgatherv_args(mine, in, recvcounts, displs));
  }
  template <kept_range R, kept_range S>
  PersistentRequest neighbor_allgatherv_init(R&& mine, S&& in, std::span<const int> recvcounts,
                                             std::span<const int> displs) const {
    return prepare<SCOMM_Neighbor_allgatherv_init>(
        neighbor_allgatherv_args(mine, in, recvcounts, displs));
  }

 private:
  const Comm& self() const { return static_cast<const Comm&>(*this); }
  std::size_t members() const { return static_cast<std::size_t>(self().size()); }

  // The C API's blocking collective `kCall` on `args` and this communicator.
  template <auto kCall, typename... Args>
  void run(const std::tuple<Args...>& args) const {
    check(std::apply([&](auto... a) { return kCall(a..., self().checked_handle()); }, args));
  }
  // The C API's nonblocking collective `kCall` on `args` and this communicator: its request.
  template <auto kCall, typename... Args>
  Request start(const std::tuple<Args...>& args) const {
    Request request;
    check(std::apply(
        [&](auto... a) { return kCall(a..., self().checked_handle(), request.handle()); }, args));
    return request;
  }

  // The C API's persistent collective `kCall` (MPI-4) on `args` and this communicator, no info.
  template <auto kCall, typename... Args>
  PersistentRequest prepare(const std::tuple<Args...>& args) const {
    PersistentRequest request;
    check(std::apply(
        [&](auto... a) {
          return kCall(a..., self().checked_handle(), MPI_INFO_NULL, request.handle());
        },
        args));
    return request;
  }

  template <typename R>
  static auto bcast_args(R& data, int root) {
    return std::tuple(data_of(data), count_of(data), type_of(data), root);
  }
  template <typename R, typename S>
  auto reduce_args(const R& in, S& out, MPI_Op op, int root) const {
    if (self().rank() == root) require_room(std::ranges::size(out), std::ranges::size(in), "out");
    return std::tuple(data_of(in), data_of(out), count_of(in), type_of(in), op, root);
  }
  // An element-wise reduction's: `out` as long as `in`.
  template <typename R, typename S>
  static auto elementwise_args(const R& in, S& out, MPI_Op op, const char* what) {
    if (std::ranges::size(in) != std::ranges::size(out))
      throw std::length_error(std::string("scomm: ") + what +
                              " with input and output of different sizes");
    return std::tuple(data_of(in), data_of(out), count_of(in), type_of(in), op);
  }
  // Allgather's, and gather's but the root: `mine` as every member's block, `all` (where
  // `collects`) holding one block per member.
  template <typename R, typename S>
  auto blocks_args(const R& mine, S& all, bool collects, const char* what) const {
    if (collects) require_room(std::ranges::size(all), members() * std::ranges::size(mine), what);
    return std::tuple(data_of(mine), count_of(mine), type_of(mine), data_of(all), count_of(mine),
                      type_of(all));
  }
  template <typename R, typename S>
  auto gather_args(const R& mine, S& all, int root, const char* what) const {
    return std::tuple_cat(blocks_args(mine, all, self().rank() == root, what), std::tuple(root));
  }
  template <typename R, typename S>
  auto scatter_args(const R& all, S& mine, int root, const char* what) const {
    if (self().rank() == root)
      require_room(std::ranges::size(all), members() * std::ranges::size(mine), what);
    return std::tuple(data_of(all), count_of(mine), type_of(all), data_of(mine), count_of(mine),
                      type_of(mine), root);
  }
  template <typename R, typename S>
  auto gatherv_args(const R& mine, S& all, std::span<const int> counts, std::span<const int> displs,
                    int root) const {
    if (self().rank() == root)
      require_room(std::ranges::size(all), extent_of(counts, displs, members(), "gatherv"),
                   "gatherv");
    return std::tuple(data_of(mine), count_of(mine), type_of(mine), data_of(all), counts.data(),
                      displs.data(), type_of(all), root);
  }
  template <typename R, typename S>
  auto scatterv_args(const R& all, std::span<const int> counts, std::span<const int> displs,
                     S& mine, int root) const {
    if (self().rank() == root)
      require_room(std::ranges::size(all), extent_of(counts, displs, members(), "scatterv"),
                   "scatterv");
    return std::tuple(data_of(all), counts.data(), displs.data(), type_of(all), data_of(mine),
                      count_of(mine), type_of(mine), root);
  }
  template <typename R, typename S>
  auto allgatherv_args(const R& mine, S& all, std::span<const int> counts,
                       std::span<const int> displs) const {
    require_room(std::ranges::size(all), extent_of(counts, displs, members(), "allgatherv"),
                 "allgatherv");
    return std::tuple(data_of(mine), count_of(mine), type_of(mine), data_of(all), counts.data(),
                      displs.data(), type_of(all));
  }
  template <typename R, typename S>
  auto alltoall_args(const R& out, S& in) const {
    const std::size_t n = std::ranges::size(out);
    if (n != std::ranges::size(in) || n % members() != 0)
      throw std::length_error(
          "scomm: alltoall with input and output of different sizes or not in equal blocks");
    const int block = int_count(n / members());
    return std::tuple(data_of(out), block, type_of(out), data_of(in), block, type_of(in));
  }
  template <typename R, typename S>
  auto alltoallv_args(const R& out, std::span<const int> sendcounts, std::span<const int> sdispls,
                      S& in, std::span<const int> recvcounts, std::span<const int> rdispls) const {
    require_room(std::ranges::size(out), extent_of(sendcounts, sdispls, members(), "alltoallv"),
                 "alltoallv's output");
    require_room(std::ranges::size(in), extent_of(recvcounts, rdispls, members(), "alltoallv"),
                 "alltoallv's input");
    return std::tuple(data_of(out), sendcounts.data(), sdispls.data(), type_of(out), data_of(in),
                      recvcounts.data(), rdispls.data(), type_of(in));
  }
  // One side of a w-form: MPI's three arrays.
  template <typename Displacement>
  struct WSide {
    std::span<const int> counts;
    std::span<const Displacement> displs;
    std::span<const MPI_Datatype> types;
  };
  // A w-form's, with `n_out` blocks sent and `n_in` received (members or neighbors).
  template <typename R, typename S, typename Displacement>
  static auto w_args(const R& out, const WSide<Displacement>& send, S& in,
                     const WSide<Displacement>& recv, std::size_t n_out, std::size_t n_in,
                     const char* what_out, const char* what_in) {
    require_room(bytes_of(out),
                 byte_extent_of(send.counts, send.displs, send.types, n_out, what_out), what_out,
                 "bytes");
    require_room(bytes_of(in), byte_extent_of(recv.counts, recv.displs, recv.types, n_in, what_in),
                 what_in, "bytes");
    return std::tuple(data_of(out), send.counts.data(), send.displs.data(), send.types.data(),
                      data_of(in), recv.counts.data(), recv.displs.data(), recv.types.data());
  }
  template <typename R, typename S>
  auto alltoallw_args(const R& out, const WSide<int>& send, S& in, const WSide<int>& recv) const {
    return w_args(out, send, in, recv, members(), members(), "alltoallw's output",
                  "alltoallw's input");
  }
  template <typename R, typename S>
  auto neighbor_alltoallw_args(const R& out, const WSide<MPI_Aint>& send, S& in,
                               const WSide<MPI_Aint>& recv) const {
    const Degrees d = degrees();
    return w_args(out, send, in, recv, d.out, d.in, "neighbor_alltoallw's output",
                  "neighbor_alltoallw's input");
  }
  template <typename R, typename S>
  auto reduce_scatter_block_args(const R& in, S& out, MPI_Op op) const {
    if (std::ranges::size(in) != members() * std::ranges::size(out))
      throw std::length_error("scomm: reduce_scatter_block's input is not one block per member");
    return std::tuple(data_of(in), data_of(out), count_of(out), type_of(in), op);
  }
  template <typename R, typename S>
  auto reduce_scatter_args(const R& in, S& out, std::span<const int> recvcounts, MPI_Op op) const {
    if (recvcounts.size() != members())
      throw std::length_error("scomm: reduce_scatter needs one count per member");
    require_room(std::ranges::size(in), total_of(recvcounts), "reduce_scatter's input");
    const int mine = recvcounts[static_cast<std::size_t>(self().rank())];
    require_room(std::ranges::size(out), static_cast<std::size_t>(std::max(mine, 0)),
                 "reduce_scatter's output");
    return std::tuple(data_of(in), data_of(out), recvcounts.data(), type_of(in), op);
  }

  // The in- and out-degree of this communicator's virtual topology; none without one (the C API
  // then says there is none).
  struct Degrees {
    std::size_t in = 0, out = 0;
  };
  Degrees degrees() const {
    int kind = SCOMM_UNDEFINED;
    check(SCOMM_Topo_test(self().checked_handle(), &kind));
    int in = 0, out = 0, weighted = 0;
    if (kind == SCOMM_CART) {
      check(SCOMM_Cartdim_get(self().checked_handle(), &in));
      out = in = 2 * in;
    } else if (kind == SCOMM_DIST_GRAPH) {
      check(SCOMM_Dist_graph_neighbors_count(self().checked_handle(), &in, &out, &weighted));
    }
    return {static_cast<std::size_t>(in), static_cast<std::size_t>(out)};
  }
  template <typename R, typename S>
  auto neighbor_alltoall_args(const R& out, S& in, int count) const {
    const Degrees d = degrees();
    const auto block = static_cast<std::size_t>(std::max(count, 0));
    require_room(std::ranges::size(out), d.out * block, "neighbor_alltoall's output");
    require_room(std::ranges::size(in), d.in * block, "neighbor_alltoall's input");
    return std::tuple(data_of(out), count, type_of(out), data_of(in), count, type_of(in));
  }
  template <typename R, typename S>
  auto neighbor_alltoallv_args(const R& out, std::span<const int> sendcounts,
                               std::span<const int> sdispls, S& in, std::span<const int> recvcounts,
                               std::span<const int> rdispls) const {
    const Degrees d = degrees();
    require_room(std::ranges::size(out),
                 extent_of(sendcounts, sdispls, d.out, "neighbor_alltoallv"),
                 "neighbor_alltoallv's output");
    require_room(std::ranges::size(in), extent_of(recvcounts, rdispls, d.in, "neighbor_alltoallv"),
                 "neighbor_alltoallv's input");
    return std::tuple(data_of(out), sendcounts.data(), sdispls.data(), type_of(out), data_of(in),
                      recvcounts.data(), rdispls.data(), type_of(in));
  }
  template <typename R, typename S>
  auto neighbor_allgather_args(const R& mine, S& in) const {
    require_room(std::ranges::size(in), degrees().in * std::ranges::size(mine),
                 "neighbor_allgather's input");
    return std::tuple(data_of(mine), count_of(mine), type_of(mine), data_of(in), count_of(mine),
                      type_of(in));
  }
  template <typename R, typename S>
  auto neighbor_allgatherv_args(const R& mine, S& in, std::span<const int> recvcounts,
                                std::span<const int> displs) const {
    require_room(std::ranges::size(in),
                 extent_of(recvcounts, displs, degrees().in, "neighbor_allgatherv"),
                 "neighbor_allgatherv's input");
    return std::tuple(data_of(mine), count_of(mine), type_of(mine), data_of(in), recvcounts.data(),
                      displs.data(), type_of(in));
  }
};

}  // namespace scomm::detail
