// RBC's experiment: split the world into halves, create + free, by local range creation, scomm
// split, MPI_Comm_split and MPI_Comm_create_group.
#include "experiments.hpp"
#include "scomm.h"

namespace scomm::bench {

std::vector<Row> split_halves(const MpiBenchOptions& o) {
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int half = (p + 1) / 2, color = rank < half ? 0 : 1;
  MPI_Group world_group, my_half;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int range[1][3] = {{color == 0 ? 0 : half, color == 0 ? half - 1 : p - 1, 1}};
  MPI_Group_range_incl(world_group, 1, range, &my_half);
  std::vector<Row> rows;
  auto add = [&](const char* name, int iterations, const std::function<void()>& op) {
    rows.push_back({"split-halves",
                    name,
                    "ns per create+free",
                    p,
                    time_per_call(MPI_COMM_WORLD, o.reps, iterations, op),
                    {}});
  };
  // Each rank creates its own half, as RBC's split does: one local creation on the parent at
  // every member, the two halves disjoint, so they may share the derived context.
  rows.push_back({"split-halves",
                  "scomm create_range (local)",
                  "CPU ns per create+free",
                  p,
                  cpu_time_per_call(MPI_COMM_WORLD, o.reps, o.quick ? 1000 : 200000,
                                    [&] {
                                      SCOMM_Comm mine = SCOMM_COMM_NULL;
                                      SCOMM_Comm_create_range(SCOMM_COMM_WORLD, range[0][0],
                                                              range[0][1], 1, &mine);
                                      SCOMM_Comm_free(&mine);
                                    }),
                  {}});
  const int collective_iterations = o.quick ? 20 : 200;
  add("scomm split", collective_iterations, [&] {
    SCOMM_Comm c = SCOMM_COMM_NULL;
    SCOMM_Comm_split(SCOMM_COMM_WORLD, color, rank, &c);
    SCOMM_Comm_free(&c);
  });
  add("MPI_Comm_split", collective_iterations, [&] {
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &c);
    MPI_Comm_free(&c);
  });
  add("MPI_Comm_create_group", collective_iterations, [&] {
    MPI_Comm c;
    MPI_Comm_create_group(MPI_COMM_WORLD, my_half, 7, &c);
    MPI_Comm_free(&c);
  });
  MPI_Group_free(&my_half);
  MPI_Group_free(&world_group);
  // What the result costs in memory: the map scomm keeps, against MPI's rank array.
  SCOMM_Comm c = SCOMM_COMM_NULL;
  SCOMM_Comm_split(SCOMM_COMM_WORLD, color, rank, &c);
  SCOMM_Group g;
  SCOMM_Comm_group(c, &g);
  std::size_t bytes = 0;
  SCOMM_Group_memory(g, &bytes);
  char name[SCOMM_MAX_OBJECT_NAME];
  int length = 0;
  SCOMM_Group_representation(g, name, &length);
  for (Row& row : rows)
    row.extra = {{"result map", name},
                 {"map bytes", std::to_string(bytes)},
                 {"MPI rank array bytes", std::to_string(4 * (color == 0 ? half : p - half))}};
  SCOMM_Group_free(&g);
  SCOMM_Comm_free(&c);
  return rows;
}

}  // namespace scomm::bench
