// Every collective of the C API against the base MPI's own on the same ranks (duplicates of the
// world; the neighborhood collectives on a periodic 2-D grid over it), blocks of 8 B to 1 MiB of
// doubles per rank, repetitions alternating between the two.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

#include "comparison.hpp"
#include "experiments.hpp"
#include "scomm.h"

namespace scomm::bench {
namespace {

// What every collective works on: `count` doubles per block (the whole vector of a
// reduction), the v-variants with the same count everywhere; `blocks` per buffer (the ranks, or
// the neighbors).
struct Buffers {
  std::vector<double> in, out;
  std::vector<int> counts, displs;
  // The w-forms': MPI_DOUBLE blocks, displacements in bytes.
  std::vector<MPI_Datatype> types;
  std::vector<int> byte_displs;
  std::vector<MPI_Aint> addresses;
  int count = 0;

  void prepare(int n, int blocks) {
    count = n;
    const auto most = static_cast<std::size_t>(n) * static_cast<std::size_t>(blocks);
    if (in.size() < most) {
      in.assign(most, 1.0);
      out.assign(most, 0.0);
    }
    counts.assign(static_cast<std::size_t>(blocks), n);
    displs.resize(static_cast<std::size_t>(blocks));
    for (int i = 0; i < blocks; ++i) displs[static_cast<std::size_t>(i)] = i * n;
    types.assign(counts.size(), MPI_DOUBLE);
    byte_displs.clear();
    for (const int d : displs) byte_displs.push_back(d * static_cast<int>(sizeof(double)));
    addresses.assign(byte_displs.begin(), byte_displs.end());
  }
};

struct Collective {
  const char* name;
  bool sized;  // false: no data (barrier), measured once
  void (*scomm)(Buffers&, SCOMM_Comm);
  void (*native)(Buffers&, MPI_Comm);
};

// One collective: SCOMM_<call> and MPI_<call> with the same arguments, `b` the Buffers, `n`
// the count, `comm` the communicator. A new collective is one line of kCollectives.
#define SCOMM_BENCH_COLLECTIVE(name, sized, call)          \
  Collective {                                             \
    name, sized,                                           \
        []([[maybe_unused]] Buffers& b, SCOMM_Comm comm) { \
          [[maybe_unused]] const int n = b.count;          \
          SCOMM_##call;                                    \
        },                                                 \
        []([[maybe_unused]] Buffers& b, MPI_Comm comm) {   \
          [[maybe_unused]] const int n = b.count;          \
          MPI_##call;                                      \
        }                                                  \
  }

const std::array kCollectives = {
    SCOMM_BENCH_COLLECTIVE("Barrier", false, Barrier(comm)),
    SCOMM_BENCH_COLLECTIVE("Bcast", true, Bcast(b.out.data(), n, MPI_DOUBLE, 0, comm)),
    SCOMM_BENCH_COLLECTIVE("Reduce", true,
                           Reduce(b.in.data(), b.out.data(), n, MPI_DOUBLE, MPI_SUM, 0, comm)),
    SCOMM_BENCH_COLLECTIVE("Allreduce", true,
                           Allreduce(b.in.data(), b.out.data(), n, MPI_DOUBLE, MPI_SUM, comm)),
    SCOMM_BENCH_COLLECTIVE("Scan", true,
                           Scan(b.in.data(), b.out.data(), n, MPI_DOUBLE, MPI_SUM, comm)),
    SCOMM_BENCH_COLLECTIVE("Exscan", true,
                           Exscan(b.in.data(), b.out.data(), n, MPI_DOUBLE, MPI_SUM, comm)),
    SCOMM_BENCH_COLLECTIVE(
        "Gather", true, Gather(b.in.data(), n, MPI_DOUBLE, b.out.data(), n, MPI_DOUBLE, 0, comm)),
    SCOMM_BENCH_COLLECTIVE("Gatherv", true,
                           Gatherv(b.in.data(), n, MPI_DOUBLE, b.out.data(), b.counts.data(),
                                   b.displs.data(), MPI_DOUBLE, 0, comm)),
    SCOMM_BENCH_COLLECTIVE(
        "Scatter", true, Scatter(b.in.data(), n, MPI_DOUBLE, b.out.data(), n, MPI_DOUBLE, 0, comm)),
    SCOMM_BENCH_COLLECTIVE("Scatterv", true,
                           Scatterv(b.in.data(), b.counts.data(), b.displs.data(), MPI_DOUBLE,
                                    b.out.data(), n, MPI_DOUBLE, 0, comm)),
    SCOMM_BENCH_COLLECTIVE(
        "Allgather", true,
        Allgather(b.in.data(), n, MPI_DOUBLE, b.out.data(), n, MPI_DOUBLE, comm)),
    SCOMM_BENCH_COLLECTIVE("Allgatherv", true,
                           Allgatherv(b.in.data(), n, MPI_DOUBLE, b.out.data(), b.counts.data(),
                                      b.displs.data(), MPI_DOUBLE, comm)),
    SCOMM_BENCH_COLLECTIVE("Alltoall", true,
                           Alltoall(b.in.data(), n, MPI_DOUBLE, b.out.data(), n, MPI_DOUBLE, comm)),
    SCOMM_BENCH_COLLECTIVE(
        "Alltoallv", true,
        Alltoallv(b.in.data(), b.counts.data(), b.displs.data(), MPI_DOUBLE, b.out.data(),
                  b.counts.data(), b.displs.data(), MPI_DOUBLE, comm)),
    SCOMM_BENCH_COLLECTIVE(
        "Alltoallw", true,
        Alltoallw(b.in.data(), b.counts.data(), b.byte_displs.data(), b.types.data(), b.out.data(),
                  b.counts.data(), b.byte_displs.data(), b.types.data(), comm)),
    SCOMM_BENCH_COLLECTIVE(
        "Reduce_scatter_block", true,
        Reduce_scatter_block(b.in.data(), b.out.data(), n, MPI_DOUBLE, MPI_SUM, comm)),
    SCOMM_BENCH_COLLECTIVE(
        "Reduce_scatter", true,
        Reduce_scatter(b.in.data(), b.out.data(), b.counts.data(), MPI_DOUBLE, MPI_SUM, comm)),
};

// On a communicator with a virtual topology.
const std::array kNeighborCollectives = {
    SCOMM_BENCH_COLLECTIVE(
        "Neighbor_allgather", true,
        Neighbor_allgather(b.in.data(), n, MPI_DOUBLE, b.out.data(), n, MPI_DOUBLE, comm)),
    SCOMM_BENCH_COLLECTIVE("Neighbor_allgatherv", true,
                           Neighbor_allgatherv(b.in.data(), n, MPI_DOUBLE, b.out.data(),
                                               b.counts.data(), b.displs.data(), MPI_DOUBLE, comm)),
    SCOMM_BENCH_COLLECTIVE(
        "Neighbor_alltoall", true,
        Neighbor_alltoall(b.in.data(), n, MPI_DOUBLE, b.out.data(), n, MPI_DOUBLE, comm)),
    SCOMM_BENCH_COLLECTIVE(
        "Neighbor_alltoallv", true,
        Neighbor_alltoallv(b.in.data(), b.counts.data(), b.displs.data(), MPI_DOUBLE, b.out.data(),
                           b.counts.data(), b.displs.data(), MPI_DOUBLE, comm)),
    SCOMM_BENCH_COLLECTIVE("Neighbor_alltoallw", true,
                           Neighbor_alltoallw(b.in.data(), b.counts.data(), b.addresses.data(),
                                              b.types.data(), b.out.data(), b.counts.data(),
                                              b.addresses.data(), b.types.data(), comm)),
};

#undef SCOMM_BENCH_COLLECTIVE

constexpr int kSizes[] = {8, 64, 512, 4096, 32768, 262144, 1048576};

// The names of --only (comma-separated), each checked against `collectives`; empty: all.
template <typename List>
std::vector<std::string_view> selection(const std::string& only, const List& collectives) {
  std::vector<std::string_view> names;
  for (std::size_t start = 0; start < only.size();) {
    const std::size_t end = std::min(only.find(',', start), only.size());
    const std::string_view name = std::string_view(only).substr(start, end - start);
    if (std::ranges::none_of(collectives, [&](const Collective& c) { return c.name == name; }))
      throw std::runtime_error("--only: no collective named '" + std::string(name) +
                               "' (names as in the table: Barrier, Bcast, Reduce_scatter, ...)");
    names.push_back(name);
    start = end + 1;
  }
  return names;
}

// Each of `collectives` at each size, `blocks` blocks a buffer, on `scomm_comm` against
// `native_comm`: rows of `experiment`.
template <typename List>
std::vector<Row> compare(const MpiBenchOptions& o, const char* experiment, const List& collectives,
                         int blocks, SCOMM_Comm scomm_comm, MPI_Comm native_comm) {
  Buffers buffers;
  const double target_ns = o.quick ? 2e5 : 1e7;
  std::vector<Row> rows;
  const std::vector<std::string_view> only = selection(o.only, collectives);
  for (const Collective& c : collectives) {
    if (!only.empty() && std::ranges::find(only, c.name) == only.end()) continue;
    for (const int bytes : kSizes) {
      if (!c.sized && bytes != kSizes[0]) break;
      if ((o.quick && bytes > 65536) || bytes > o.max_bytes) break;
      buffers.prepare(c.sized ? bytes / 8 : 0, blocks);
      const auto ours = [&] { c.scomm(buffers, scomm_comm); };
      const auto theirs = [&] { c.native(buffers, native_comm); };
      const int iterations = iterations_for(target_ns, 1000, theirs);
      ours();  // warm-up
      const std::string size = c.sized ? std::to_string(bytes) : "0";
      add_comparison(rows, experiment, std::string(c.name) + " " + size + " B", "ns per call",
                     interleaved(o.reps, iterations, ours, theirs),
                     {{"collective", c.name}, {"bytes", size}});
    }
  }
  return rows;
}

}  // namespace

std::vector<Row> collectives(const MpiBenchOptions& o) {
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm native_comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &native_comm);
  SCOMM_Comm scomm_comm = SCOMM_COMM_NULL;
  SCOMM_Comm_dup(SCOMM_COMM_WORLD, &scomm_comm);
  std::vector<Row> rows = compare(o, "collectives", kCollectives, p, scomm_comm, native_comm);
  SCOMM_Comm_free(&scomm_comm);
  MPI_Comm_free(&native_comm);
  return rows;
}

// A halo exchange's shape: the world as a periodic 2-D grid (MPI_Dims_create's), four
// neighbors a process, the same ones under both libraries.
std::vector<Row> neighbor_collectives(const MpiBenchOptions& o) {
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int dims[2] = {0, 0};
  const int periods[2] = {1, 1};
  MPI_Dims_create(p, 2, dims);
  MPI_Comm native_grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &native_grid);
  SCOMM_Comm scomm_grid = SCOMM_COMM_NULL;
  SCOMM_Cart_create(SCOMM_COMM_WORLD, 2, dims, periods, 0, &scomm_grid);
  std::vector<Row> rows =
      compare(o, "neighbor-collectives", kNeighborCollectives, 4, scomm_grid, native_grid);
  SCOMM_Comm_free(&scomm_grid);
  MPI_Comm_free(&native_grid);
  return rows;
}

}  // namespace scomm::bench
