#include "fit_algorithms.hpp"

#include <mpi.h>

#include "scomm.h"
#include "scomm/capi/context.hpp"
#include "scomm/coll/allgather_bruck.hpp"
#include "scomm/coll/allgather_recursive_doubling.hpp"
#include "scomm/coll/allgather_ring.hpp"
#include "scomm/coll/allreduce_rabenseifner.hpp"
#include "scomm/coll/allreduce_recursive_doubling.hpp"
#include "scomm/coll/allreduce_ring.hpp"
#include "scomm/coll/alltoall_bruck.hpp"
#include "scomm/coll/alltoall_linear.hpp"
#include "scomm/coll/alltoall_pairwise.hpp"
#include "scomm/coll/barrier_dissemination.hpp"
#include "scomm/coll/barrier_linear.hpp"
#include "scomm/coll/bcast_binomial.hpp"
#include "scomm/coll/bcast_knomial.hpp"
#include "scomm/coll/bcast_pipelined_tree.hpp"
#include "scomm/coll/bcast_scatter_allgather.hpp"
#include "scomm/coll/gather_binomial.hpp"
#include "scomm/coll/reduce_binomial.hpp"
#include "scomm/coll/reduce_pipelined_tree.hpp"
#include "scomm/coll/reduce_scatter_pairwise.hpp"
#include "scomm/coll/reduce_scatter_recursive_halving.hpp"
#include "scomm/coll/rooted_linear.hpp"
#include "scomm/coll/scan_binary_tree.hpp"
#include "scomm/coll/scan_linear.hpp"
#include "scomm/coll/scan_recursive_doubling.hpp"
#include "scomm/coll/scatter_binomial.hpp"
#include "scomm/coll/segments.hpp"

namespace scomm::bench {
namespace {

using coll::Schedule;
using coll::Shape;

constexpr std::size_t kLargestBlock = 131072;  // doubles: 1 MiB
constexpr int kRadix = 4;                      // bcast.cpp's k-nomial radix

const coll::Selection& selection() {
  return capi::context().coll_selection;
}

// The segments the library's table gives a vector of `count` doubles.
std::int64_t bcast_segment(std::int64_t count) {
  return std::max<std::int64_t>(1, selection().bcast_segment_bytes(count * 8) / 8);
}
std::int64_t reduce_segment(const Shape& s, std::int64_t count) {
  return coll::segment_elements(count * 8, count,
                                selection().reduce_segment_bytes(count * 8, s.size));
}
std::vector<std::int64_t> block_counts(const Shape& s, std::int64_t count) {
  return std::vector<std::int64_t>(static_cast<std::size_t>(s.size), count);
}

// A builder of `count` elements, not in place.
template <Schedule (*kBuild)(const Shape&, std::int64_t, bool)>
Schedule vector_of(const Shape& s, std::int64_t n) {
  return kBuild(s, n, false);
}
// A builder of blocks of `count` elements sent and received, not in place.
template <Schedule (*kBuild)(const Shape&, std::int64_t, std::int64_t, bool)>
Schedule blocks_of(const Shape& s, std::int64_t n) {
  return kBuild(s, n, n, false);
}

// The scan chain of `count` elements, as the library cuts it, of a commutative operation.
template <Schedule (*kBuild)(const Shape&, std::int64_t, bool, std::int64_t, bool)>
Schedule chain_of(const Shape& s, std::int64_t n) {
  return kBuild(s, n, false, selection().scan_chain_segment(n * 8, n, s.size), true);
}

void barrier(FitBuffers&, int) {
  SCOMM_Barrier(SCOMM_COMM_WORLD);
}
void bcast(FitBuffers& b, int n) {
  SCOMM_Bcast(b.out.data(), n, MPI_DOUBLE, 0, SCOMM_COMM_WORLD);
}
void reduce(FitBuffers& b, int n) {
  SCOMM_Reduce(b.in.data(), b.out.data(), n, MPI_DOUBLE, MPI_SUM, 0, SCOMM_COMM_WORLD);
}
void allreduce(FitBuffers& b, int n) {
  SCOMM_Allreduce(b.in.data(), b.out.data(), n, MPI_DOUBLE, MPI_SUM, SCOMM_COMM_WORLD);
}
void scan(FitBuffers& b, int n) {
  SCOMM_Scan(b.in.data(), b.out.data(), n, MPI_DOUBLE, MPI_SUM, SCOMM_COMM_WORLD);
}
void exscan(FitBuffers& b, int n) {
  SCOMM_Exscan(b.in.data(), b.out.data(), n, MPI_DOUBLE, MPI_SUM, SCOMM_COMM_WORLD);
}
void gather(FitBuffers& b, int n) {
  SCOMM_Gather(b.in.data(), n, MPI_DOUBLE, b.out.data(), n, MPI_DOUBLE, 0, SCOMM_COMM_WORLD);
}
void scatter(FitBuffers& b, int n) {
  SCOMM_Scatter(b.in.data(), n, MPI_DOUBLE, b.out.data(), n, MPI_DOUBLE, 0, SCOMM_COMM_WORLD);
}
void allgather(FitBuffers& b, int n) {
  SCOMM_Allgather(b.in.data(), n, MPI_DOUBLE, b.out.data(), n, MPI_DOUBLE, SCOMM_COMM_WORLD);
}
void alltoall(FitBuffers& b, int n) {
  SCOMM_Alltoall(b.in.data(), n, MPI_DOUBLE, b.out.data(), n, MPI_DOUBLE, SCOMM_COMM_WORLD);
}
void reduce_scatter_block(FitBuffers& b, int n) {
  SCOMM_Reduce_scatter_block(b.in.data(), b.out.data(), n, MPI_DOUBLE, MPI_SUM, SCOMM_COMM_WORLD);
}

// Each operation's algorithms in the order of docs/RESULTS.md's table.
const FitAlgorithm kAlgorithms[] = {
    {"SCOMM_COLL_BARRIER", "dissemination", false,
     [](const Shape& s, std::int64_t) { return coll::barrier_dissemination(s); }, barrier},
    {"SCOMM_COLL_BARRIER", "linear", false,
     [](const Shape& s, std::int64_t) { return coll::barrier_linear(s); }, barrier},
    {"SCOMM_COLL_BCAST", "binomial", true,
     [](const Shape& s, std::int64_t n) { return coll::bcast_binomial(s, n); }, bcast},
    {"SCOMM_COLL_BCAST", "knomial", true,
     [](const Shape& s, std::int64_t n) { return coll::bcast_knomial(s, n, kRadix); }, bcast},
    {"SCOMM_COLL_BCAST", "pipelined_tree", true,
     [](const Shape& s, std::int64_t n) {
       return coll::bcast_pipelined_tree(s, n, bcast_segment(n));
     },
     bcast},
    {"SCOMM_COLL_BCAST", "scatter_allgather", true,
     [](const Shape& s, std::int64_t n) { return coll::bcast_scatter_allgather(s, n); }, bcast},
    {"SCOMM_COLL_REDUCE", "binomial", true,
     [](const Shape& s, std::int64_t n) { return coll::reduce_binomial(s, n, false, true); },
     reduce},
    {"SCOMM_COLL_REDUCE", "pipelined_tree", true,
     [](const Shape& s, std::int64_t n) {
       return coll::reduce_pipelined_tree(s, n, false, reduce_segment(s, n));
     },
     reduce},
    {"SCOMM_COLL_ALLREDUCE", "recursive_doubling", true,
     vector_of<coll::allreduce_recursive_doubling>, allreduce},
    {"SCOMM_COLL_ALLREDUCE", "rabenseifner", true, vector_of<coll::allreduce_rabenseifner>,
     allreduce},
    {"SCOMM_COLL_ALLREDUCE", "ring", true, vector_of<coll::allreduce_ring>, allreduce},
    {"SCOMM_COLL_SCAN", "linear", true, chain_of<coll::scan_linear>, scan},
    {"SCOMM_COLL_SCAN", "recursive_doubling", true, vector_of<coll::scan_recursive_doubling>, scan},
    {"SCOMM_COLL_SCAN", "binary_tree", true, vector_of<coll::scan_binary_tree>, scan},
    {"SCOMM_COLL_EXSCAN", "linear", true, chain_of<coll::exscan_linear>, exscan},
    {"SCOMM_COLL_GATHER", "binomial", true, blocks_of<coll::gather_binomial>, gather},
    {"SCOMM_COLL_GATHER", "linear", true, blocks_of<coll::gather_linear>, gather},
    {"SCOMM_COLL_SCATTER", "binomial", true, blocks_of<coll::scatter_binomial>, scatter},
    {"SCOMM_COLL_SCATTER", "linear", true, blocks_of<coll::scatter_linear>, scatter},
    {"SCOMM_COLL_ALLGATHER", "bruck", true, blocks_of<coll::allgather_bruck>, allgather},
    {"SCOMM_COLL_ALLGATHER", "recursive_doubling", true,
     blocks_of<coll::allgather_recursive_doubling>, allgather},
    {"SCOMM_COLL_ALLGATHER", "ring", true, blocks_of<coll::allgather_ring>, allgather},
    {"SCOMM_COLL_ALLTOALL", "linear", true, blocks_of<coll::alltoall_linear>, alltoall},
    {"SCOMM_COLL_ALLTOALL", "bruck", true, blocks_of<coll::alltoall_bruck>, alltoall},
    {"SCOMM_COLL_ALLTOALL", "pairwise", true, blocks_of<coll::alltoall_pairwise>, alltoall},
    {"SCOMM_COLL_REDUCE_SCATTER_BLOCK", "recursive_halving", true,
     [](const Shape& s, std::int64_t n) {
       return coll::reduce_scatter_recursive_halving(s, block_counts(s, n));
     },
     reduce_scatter_block},
    {"SCOMM_COLL_REDUCE_SCATTER_BLOCK", "pairwise", true,
     [](const Shape& s, std::int64_t n) {
       return coll::reduce_scatter_pairwise(s, block_counts(s, n), false);
     },
     reduce_scatter_block},
};

}  // namespace

FitBuffers::FitBuffers(int ranks)
    : in(kLargestBlock * static_cast<std::size_t>(ranks), 1.0),
      out(kLargestBlock * static_cast<std::size_t>(ranks), 0.0) {}

std::span<const FitAlgorithm> fit_algorithms() {
  return kAlgorithms;
}

}  // namespace scomm::bench
