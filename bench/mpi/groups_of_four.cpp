// RBC's slides, experiment E4: overlapping groups of four. Cascading groups {i..i+3} put every
// rank in four groups, alternating groups {4k..4k+3} in one. Creation of all of a rank's groups
// (scomm local ranges vs MPI_Comm_create_group), then one ring exchange in every group.
#include <algorithm>

#include "experiments.hpp"
#include "scomm.h"

namespace scomm::bench {
namespace {

struct Pattern {
  const char* name;
  int step;  // 1: cascading, 4: alternating
};

// The world, and the groups {first..first+3} of one pattern (cut at the world's end).
struct World {
  int p = 0, rank = 0;
  MPI_Group group = MPI_GROUP_NULL;

  World() {
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &group);
  }
  ~World() { MPI_Group_free(&group); }
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int last(int first) const { return std::min(first + 3, p - 1); }
  bool contains_me(int first) const { return rank >= first && rank <= last(first); }

  // Local: every rank calls it for every group; SCOMM_COMM_NULL where this rank is not a member.
  SCOMM_Comm scomm_group(int first) const {
    SCOMM_Comm comm = SCOMM_COMM_NULL;
    SCOMM_Comm_create_range(SCOMM_COMM_WORLD, first, last(first), 1, &comm);
    return comm;
  }
  // Collective over the group's members only (the group's first rank is the tag).
  MPI_Comm mpi_group(int first) const {
    int range[1][3] = {{first, last(first), 1}};
    MPI_Group members = MPI_GROUP_NULL;
    MPI_Group_range_incl(group, 1, range, &members);
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_create_group(MPI_COMM_WORLD, members, first, &comm);
    MPI_Group_free(&members);
    return comm;
  }
};

// This rank's groups of a pattern, made both ways, with its rank and the size in each.
struct LiveGroups {
  std::vector<SCOMM_Comm> scomm;
  std::vector<MPI_Comm> mpi;
  std::vector<int> ranks, sizes;

  LiveGroups(const World& world, const Pattern& pattern) {
    for (int first = 0; first < world.p; first += pattern.step) {
      const SCOMM_Comm comm = world.scomm_group(first);
      if (comm == SCOMM_COMM_NULL) continue;
      scomm.push_back(comm);
      mpi.push_back(world.mpi_group(first));
      SCOMM_Comm_rank(comm, &ranks.emplace_back());
      SCOMM_Comm_size(comm, &sizes.emplace_back());
    }
  }
  ~LiveGroups() {
    for (SCOMM_Comm& comm : scomm) SCOMM_Comm_free(&comm);
    for (MPI_Comm& comm : mpi) MPI_Comm_free(&comm);
  }
  LiveGroups(const LiveGroups&) = delete;
  LiveGroups& operator=(const LiveGroups&) = delete;
};

// One int to the next member of every group, from the previous one, through one library's
// calls (scomm's or MPI's: the same parameters, their own handle types).
template <typename Comm, typename Request, typename Isend, typename Irecv, typename Waitall>
void ring(const std::vector<Comm>& comms, const LiveGroups& groups, std::vector<Request>& requests,
          Isend isend, Irecv irecv, Waitall waitall) {
  std::vector<int> in(comms.size()), out(comms.size(), 1);
  for (std::size_t i = 0; i < comms.size(); ++i) {
    const int rank = groups.ranks[i], size = groups.sizes[i];
    irecv(&in[i], 1, MPI_INT, (rank + size - 1) % size, 0, comms[i], &requests.emplace_back());
    isend(&out[i], 1, MPI_INT, (rank + 1) % size, 0, comms[i], &requests.emplace_back());
  }
  waitall(static_cast<int>(requests.size()), requests.data());
  requests.clear();
}

void scomm_ring(const LiveGroups& groups, std::vector<SCOMM_Request>& requests) {
  ring(groups.scomm, groups, requests, SCOMM_Isend, SCOMM_Irecv,
       [](int count, SCOMM_Request* all) { SCOMM_Waitall(count, all, SCOMM_STATUSES_IGNORE); });
}

void mpi_ring(const LiveGroups& groups, std::vector<MPI_Request>& requests) {
  ring(groups.mpi, groups, requests, MPI_Isend, MPI_Irecv,
       [](int count, MPI_Request* all) { MPI_Waitall(count, all, MPI_STATUSES_IGNORE); });
}

// The four rows of one pattern.
void measure_pattern(const MpiBenchOptions& o, const World& world, const Pattern& pattern,
                     std::vector<Row>& rows) {
  const int iterations = o.quick ? 10 : 200;
  auto add = [&](const std::string& name, const char* unit, Timing timing) {
    rows.push_back(
        {"groups-of-four", std::string(pattern.name) + ": " + name, unit, world.p, timing, {}});
  };
  // Local, so CPU time (see cpu_time_per_call); every rank makes every group's creation call.
  // All of a rank's groups are live together, then freed.
  std::vector<SCOMM_Comm> made;
  add("scomm create_range (local)", "CPU ns per creation of all groups + free",
      cpu_time_per_call(MPI_COMM_WORLD, o.reps, iterations * 100, [&] {
        for (int first = 0; first < world.p; first += pattern.step)
          if (const SCOMM_Comm comm = world.scomm_group(first); comm != SCOMM_COMM_NULL)
            made.push_back(comm);
        for (SCOMM_Comm& comm : made) SCOMM_Comm_free(&comm);
        made.clear();
      }));
  std::vector<MPI_Comm> made_by_mpi;
  add("MPI_Comm_create_group", "ns per creation of all groups + free",
      time_per_call(MPI_COMM_WORLD, o.reps, iterations, [&] {
        for (int first = 0; first < world.p; first += pattern.step)
          if (world.contains_me(first)) made_by_mpi.push_back(world.mpi_group(first));
        for (MPI_Comm& comm : made_by_mpi) MPI_Comm_free(&comm);
        made_by_mpi.clear();
      }));
  const LiveGroups groups(world, pattern);
  std::vector<SCOMM_Request> scomm_requests;
  add("scomm ring in every group", "ns per exchange round",
      time_per_call(MPI_COMM_WORLD, o.reps, iterations,
                    [&] { scomm_ring(groups, scomm_requests); }));
  std::vector<MPI_Request> mpi_requests;
  add("MPI ring in every group", "ns per exchange round",
      time_per_call(MPI_COMM_WORLD, o.reps, iterations, [&] { mpi_ring(groups, mpi_requests); }));
}

}  // namespace

std::vector<Row> groups_of_four(const MpiBenchOptions& o) {
  const World world;
  std::vector<Row> rows;
  for (const Pattern pattern : {Pattern{"cascading", 1}, Pattern{"alternating", 4}})
    measure_pattern(o, world, pattern, rows);
  return rows;
}

}  // namespace scomm::bench
