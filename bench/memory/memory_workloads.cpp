#include "memory_workloads.hpp"

#include <algorithm>

#include "../workloads.hpp"

namespace scomm::bench {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Parent ranks of `parent` whose parity is the caller's (the odd/even split's color).
std::vector<int> same_parity(Rank parent_size, Rank parent_rank) {
  std::vector<int> ranks;
  for (Rank r = parent_rank % 2; r < parent_size; r += 2) ranks.push_back(r);
  return ranks;
}

// Each generation splits the previous one odd/even (AV-Rankmap's Table VI).
void split_generations(RankState& state, int generations) {
  int parent = RankState::kWorld;
  for (int g = 0; g < generations && parent >= 0; ++g) {
    const comm::Comm& from = state.comm(parent);
    parent = state.split(parent, same_parity(from.size(), from.rank()),
                         "odd/even split generation " + std::to_string(g + 1));
  }
}

void dups(RankState& state, int n) {
  for (int i = 0; i < n; ++i) state.dup(RankState::kWorld, "dup of world");
}

// MPI_Comm_split by row (a blocked split: rows are contiguous) and by column.
void grid_rows_columns(RankState& state, Rank side) {
  const Rank row = state.self() / side, column = state.self() % side;
  state.split_range(RankState::kWorld, row * side, side, "row (split by row)");
  std::vector<int> ranks;
  for (Rank r = column; r < side * side; r += side) ranks.push_back(r);
  state.split(RankState::kWorld, ranks, "column (split by column)");
}

// The thesis's count: the maps of every row and every column of the grid.
void grid_all_groups(RankState& state, Rank side) {
  for (Rank r = 0; r < side; ++r) state.group_range(r * side, side, 1, "row group");
  for (Rank c = 0; c < side; ++c) state.group_range(c, side, side, "column group");
}

group::CartGrid grid_of_dims(std::vector<int> dims) {
  std::vector<bool> periods(dims.size(), true);
  return group::CartGrid(std::move(dims), std::move(periods));
}

// HACC: 3-D, 2-D and 1-D Cartesian distributions of the world, and their planes and lines.
void hacc(RankState& state, const std::vector<int>& dims3, const std::vector<int>& dims2) {
  const int cart3 = state.cart_create(RankState::kWorld, grid_of_dims(dims3), "3-D grid");
  state.cart_sub(cart3, {false, true, true}, "plane of the 3-D grid");
  for (int k = 0; k < 3; ++k) {
    std::vector<bool> keep(3, false);
    keep[static_cast<std::size_t>(k)] = true;
    state.cart_sub(cart3, keep, "line of the 3-D grid");
  }
  const int cart2 = state.cart_create(RankState::kWorld, grid_of_dims(dims2), "2-D grid");
  state.cart_sub(cart2, {false, true}, "row of the 2-D grid");
  state.cart_sub(cart2, {true, false}, "column of the 2-D grid");
  state.cart_create(RankState::kWorld, grid_of_dims({dims2[0] * dims2[1]}), "1-D grid");
}

// MPI_Comm_create_group (or MPI_Dist_graph) over each neighbourhood; the analysed rank is made a
// member of each (a rank holds the neighbourhood communicators of its neighbours).
void graph_neighbourhoods(RankState& state, int count) {
  for_each_graph_neighbourhood(
      state.world_size(), 0.005, count, 5, [&](std::vector<Rank>& members) {
        if (std::find(members.begin(), members.end(), state.self()) == members.end())
          members[members.size() / 2] = state.self();
        state.split(RankState::kWorld, members, "neighbourhood of G(n, 0.005)");
      });
}

MemoryWorkload splits_workload(Rank world, int n, std::size_t budget) {
  return {std::to_string(n) + " odd/even splits of the world",
          "AV-Rankmap Fig. 3: 9 MB per process for 100 splits at 768K (addresses included)",
          world,
          {0, world - 1},
          [n](RankState& s) { odd_even_splits(s, n); },
          budget};
}

MemoryWorkload dups_workload(Rank world, int n) {
  return {std::to_string(n) + " dups of the world (Nek5000)",
          "AV-Rankmap Fig. 4: VC-VCRT ~250 MB per process at 512K",
          world,
          {0, world - 1},
          [n](RankState& s) { dups(s, n); }};
}

std::vector<MemoryWorkload> thesis_memory_workloads(Rank world) {
  std::vector<MemoryWorkload> out;
  for (Workload& w : thesis_workloads(world)) {
    auto members = std::make_shared<const std::vector<int>>(std::move(w.members));
    out.push_back({"thesis " + w.name,
                   "Taheri 2011 table 6.1 (W = " + std::to_string(world) + ")",
                   world,
                   {members->front(), members->back()},
                   [members, name = w.name](RankState& s) {
                     s.split(RankState::kWorld, *members, "thesis " + name);
                   }});
  }
  return out;
}

}  // namespace

void odd_even_splits(RankState& state, int n) {
  const std::vector<int> ranks = same_parity(state.world_size(), state.self());
  for (int i = 0; i < n; ++i) state.split(RankState::kWorld, ranks, "odd/even split of world");
}

std::vector<MemoryWorkload> memory_workloads(bool quick) {
  const int shrink = quick ? 32 : 1;
  const Rank mira = 786432 / shrink, nek = 524288 / shrink, side = quick ? 128 : 1024;
  const Rank graph = (1 << 20) / shrink;
  std::vector<MemoryWorkload> w;
  w.push_back(splits_workload(mira, 10, 0));
  w.push_back(splits_workload(mira, 100, kMiB));
  w.push_back({"odd/even split generations 1-4",
               "AV-Rankmap Table VI (splits of splits)",
               mira,
               {0, mira - 1},
               [](RankState& s) { split_generations(s, 4); }});
  w.push_back(dups_workload(nek, 24));
  w.push_back(dups_workload(nek, 86));
  const std::string grid = std::to_string(side) + "x" + std::to_string(side);
  w.push_back({grid + " grid: my row and column",
               "Taheri 2011 4.1.2.2",
               side * side,
               {0, side * side - 1},
               [side](RankState& s) { grid_rows_columns(s, side); }});
  w.push_back({grid + " grid: all row and column groups",
               "Taheri 2011 4.1.2.2: 8 MB in MPICH, 5,120 B as BDDs",
               side * side,
               {0},
               [side](RankState& s) { grid_all_groups(s, side); }});
  const std::vector<int> dims3 =
      quick ? std::vector<int>{16, 24, 64} : std::vector<int>{64, 96, 128};
  const std::vector<int> dims2 = quick ? std::vector<int>{96, 256} : std::vector<int>{768, 1024};
  w.push_back({"HACC 3-D/2-D/1-D Cartesian communicators",
               "AV-Rankmap section II (HACC)",
               mira,
               {0, mira - 1},
               [dims3, dims2](RankState& s) { hacc(s, dims3, dims2); }});
  for (MemoryWorkload& t : thesis_memory_workloads(quick ? 10000 : 200000))
    w.push_back(std::move(t));
  const int neighbourhoods = quick ? 50 : 5000;
  w.push_back({std::to_string(neighbourhoods) + " neighbourhoods of G(" + std::to_string(graph) +
                   ", 0.005)",
               "Taheri 2011 4.3.2.1 (random graph)",
               graph,
               {0},
               [neighbourhoods](RankState& s) { graph_neighbourhoods(s, neighbourhoods); }});
  return w;
}

}  // namespace scomm::bench
