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

std::vector<int> firsts_containing(int rank, int p, int step) {
  std::vector<int> out;
  for (int first = 0; first < p; first += step)
    if (rank >= first && rank <= std::min(first + 3, p - 1)) out.push_back(first);
  return out;
}

// One int to the next member of every group, from the previous one.
template <typename Comm, typename Isend, typename Irecv, typename Waitall>
void ring(const std::vector<Comm>& comms, const std::vector<int>& ranks,
          const std::vector<int>& sizes, Isend isend, Irecv irecv, Waitall waitall) {
  std::vector<int> in(comms.size()), out(comms.size(), 1);
  for (std::size_t i = 0; i < comms.size(); ++i) {
    irecv(&in[i], (ranks[i] + sizes[i] - 1) % sizes[i], comms[i]);
    isend(&out[i], (ranks[i] + 1) % sizes[i], comms[i]);
  }
  waitall();
}

}  // namespace

std::vector<Row> groups_of_four(const MpiBenchOptions& o) {
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Group world_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  std::vector<Row> rows;
  const int iterations = o.quick ? 10 : 200;
  for (const Pattern pattern : {Pattern{"cascading", 1}, Pattern{"alternating", 4}}) {
    const auto firsts = firsts_containing(rank, p, pattern.step);
    auto row = [&](const std::string& name, const char* unit, const std::function<void()>& op) {
      rows.push_back({"groups-of-four",
                      std::string(pattern.name) + ": " + name,
                      unit,
                      p,
                      time_per_call(MPI_COMM_WORLD, o.reps, iterations, op),
                      {}});
    };
    std::vector<SCOMM_Comm> mine;
    // Local, so CPU time (see cpu_time_per_call); every rank makes every group's creation call.
    rows.push_back({"groups-of-four",
                    std::string(pattern.name) + ": scomm create_range (local)",
                    "CPU ns per creation of all groups + free",
                    p,
                    cpu_time_per_call(MPI_COMM_WORLD, o.reps, iterations * 100,
                                      [&] {
                                        for (int first = 0; first < p; first += pattern.step) {
                                          SCOMM_Comm c = SCOMM_COMM_NULL;
                                          SCOMM_Comm_create_range(SCOMM_COMM_WORLD, first,
                                                                  std::min(first + 3, p - 1), 1,
                                                                  &c);
                                          if (c != SCOMM_COMM_NULL) mine.push_back(c);
                                        }
                                        for (SCOMM_Comm& c : mine) SCOMM_Comm_free(&c);
                                        mine.clear();
                                      }),
                    {}});
    std::vector<MPI_Comm> theirs;
    row("MPI_Comm_create_group", "ns per creation of all groups + free", [&] {
      for (int first : firsts) {
        int r[1][3] = {{first, std::min(first + 3, p - 1), 1}};
        MPI_Group g;
        MPI_Group_range_incl(world_group, 1, r, &g);
        MPI_Comm c;
        MPI_Comm_create_group(MPI_COMM_WORLD, g, first, &c);
        MPI_Group_free(&g);
        theirs.push_back(c);
      }
      for (MPI_Comm& c : theirs) MPI_Comm_free(&c);
      theirs.clear();
    });
    // Live groups for the exchange.
    for (int first = 0; first < p; first += pattern.step) {
      SCOMM_Comm c = SCOMM_COMM_NULL;
      SCOMM_Comm_create_range(SCOMM_COMM_WORLD, first, std::min(first + 3, p - 1), 1, &c);
      if (c != SCOMM_COMM_NULL) mine.push_back(c);
      int r[1][3] = {{first, std::min(first + 3, p - 1), 1}};
      MPI_Group g;
      MPI_Group_range_incl(world_group, 1, r, &g);
      MPI_Comm mc = MPI_COMM_NULL;
      if (c != SCOMM_COMM_NULL) MPI_Comm_create_group(MPI_COMM_WORLD, g, first, &mc);
      if (mc != MPI_COMM_NULL) theirs.push_back(mc);
      MPI_Group_free(&g);
    }
    std::vector<int> ranks(mine.size()), sizes(mine.size());
    for (std::size_t i = 0; i < mine.size(); ++i) {
      SCOMM_Comm_rank(mine[i], &ranks[i]);
      SCOMM_Comm_size(mine[i], &sizes[i]);
    }
    std::vector<SCOMM_Request> sreq;
    row("scomm ring in every group", "ns per exchange round", [&] {
      ring(
          mine, ranks, sizes,
          [&](int* b, int to, SCOMM_Comm c) {
            sreq.push_back(0);
            SCOMM_Isend(b, 1, MPI_INT, to, 0, c, &sreq.back());
          },
          [&](int* b, int from, SCOMM_Comm c) {
            sreq.push_back(0);
            SCOMM_Irecv(b, 1, MPI_INT, from, 0, c, &sreq.back());
          },
          [&] {
            SCOMM_Waitall(static_cast<int>(sreq.size()), sreq.data(), SCOMM_STATUSES_IGNORE);
            sreq.clear();
          });
    });
    std::vector<MPI_Request> mreq;
    row("MPI ring in every group", "ns per exchange round", [&] {
      ring(
          theirs, ranks, sizes,
          [&](int* b, int to, MPI_Comm c) {
            mreq.push_back(MPI_REQUEST_NULL);
            MPI_Isend(b, 1, MPI_INT, to, 0, c, &mreq.back());
          },
          [&](int* b, int from, MPI_Comm c) {
            mreq.push_back(MPI_REQUEST_NULL);
            MPI_Irecv(b, 1, MPI_INT, from, 0, c, &mreq.back());
          },
          [&] {
            MPI_Waitall(static_cast<int>(mreq.size()), mreq.data(), MPI_STATUSES_IGNORE);
            mreq.clear();
          });
    });
    for (SCOMM_Comm& c : mine) SCOMM_Comm_free(&c);
    for (MPI_Comm& c : theirs) MPI_Comm_free(&c);
    mine.clear();
    theirs.clear();
  }
  MPI_Group_free(&world_group);
  return rows;
}

}  // namespace scomm::bench
