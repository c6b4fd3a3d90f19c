// RBC's experiment: split the world into halves, create + free, by local range creation, scomm
// split, MPI_Comm_split and MPI_Comm_create_group.
#include "experiments.hpp"
#include "scomm.h"
#include "world_half.hpp"

namespace scomm::bench {
namespace {

using Columns = std::vector<std::pair<std::string, std::string>>;

// What the result costs in memory: the map scomm keeps for a half, against MPI's rank array.
Columns result_map(const WorldHalf& half) {
  SCOMM_Comm comm = SCOMM_COMM_NULL;
  SCOMM_Comm_split(SCOMM_COMM_WORLD, half.color, half.rank, &comm);
  SCOMM_Group group = SCOMM_GROUP_NULL;
  SCOMM_Comm_group(comm, &group);
  std::size_t bytes = 0;
  SCOMM_Group_memory(group, &bytes);
  char name[SCOMM_MAX_OBJECT_NAME];
  int length = 0;
  SCOMM_Group_representation(group, name, &length);
  SCOMM_Group_free(&group);
  SCOMM_Comm_free(&comm);
  return {{"result map", name},
          {"map bytes", std::to_string(bytes)},
          {"MPI rank array bytes", std::to_string(4 * half.size())}};
}

// MPI_Comm_create_group of this rank's half, create + free.
Timing mpi_create_group(const MpiBenchOptions& o, const WorldHalf& half, int iterations) {
  MPI_Group world = MPI_GROUP_NULL, mine = MPI_GROUP_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int range[1][3] = {{half.first, half.last, 1}};
  MPI_Group_range_incl(world, 1, range, &mine);
  const Timing timing = time_per_call(MPI_COMM_WORLD, o.reps, iterations, [&] {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_create_group(MPI_COMM_WORLD, mine, 7, &comm);
    MPI_Comm_free(&comm);
  });
  MPI_Group_free(&mine);
  MPI_Group_free(&world);
  return timing;
}

}  // namespace

std::vector<Row> split_halves(const MpiBenchOptions& o) {
  const WorldHalf half = WorldHalf::mine();
  std::vector<Row> rows;
  auto add = [&](const char* name, const char* unit, Timing timing) {
    rows.push_back({"split-halves", name, unit, half.p, timing, {}});
  };
  // Each rank creates its own half, as RBC's split does: one local creation on the parent at
  // every member, the two halves disjoint, so they may share the derived context. The full loop
  // goes through some 25 of the world's runs of fresh blocks a repetition (up to 8,192 blocks
  // each), so it carries their allreduces' share; the quick one (under SMPI) stays within the
  // world's first run, 3 x 300 creations: simulating those allreduces would be charged to the
  // ranks' CPU time.
  const RankTimings local =
      cpu_time_per_call_of_ranks(MPI_COMM_WORLD, o.reps, o.quick ? 300 : 200000, [&] {
        SCOMM_Comm mine = SCOMM_COMM_NULL;
        SCOMM_Comm_create_range(SCOMM_COMM_WORLD, half.first, half.last, 1, &mine);
        SCOMM_Comm_free(&mine);
      });
  add("scomm create_range (local)", "CPU ns per create+free", local.slowest);
  add("scomm create_range (local), median rank", "CPU ns per create+free", local.median_rank);
  const int iterations = o.quick ? 20 : 200;
  add("scomm split", "ns per create+free", time_per_call(MPI_COMM_WORLD, o.reps, iterations, [&] {
        SCOMM_Comm comm = SCOMM_COMM_NULL;
        SCOMM_Comm_split(SCOMM_COMM_WORLD, half.color, half.rank, &comm);
        SCOMM_Comm_free(&comm);
      }));
  add("MPI_Comm_split", "ns per create+free",
      time_per_call(MPI_COMM_WORLD, o.reps, iterations, [&] {
        MPI_Comm comm = MPI_COMM_NULL;
        MPI_Comm_split(MPI_COMM_WORLD, half.color, half.rank, &comm);
        MPI_Comm_free(&comm);
      }));
  add("MPI_Comm_create_group", "ns per create+free", mpi_create_group(o, half, iterations));
  const Columns columns = result_map(half);
  for (Row& row : rows) row.extra = columns;
  return rows;
}

}  // namespace scomm::bench
