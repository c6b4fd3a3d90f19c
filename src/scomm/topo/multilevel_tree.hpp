// The multilevel tree of MPICH-G2 (Karonis et al. 2002), generalised to any number of levels and
// to a shape chosen per level. Every rank computes its own node locally, from the Levels and the
// root, without communication.
//
// Stage 0: the root reaches one representative of every cluster of level 0. Stage s: inside
// each cluster of level s - 1, its representative reaches one representative of every cluster
// of level s it holds. Stage depth: inside each innermost cluster, its representative reaches
// the other ranks. A cluster's representative is the root when the cluster holds it, else its
// lowest rank, so a representative of a cluster also represents the subcluster holding it and
// every rank is reached exactly once. Per stage the shape is flat or binomial (level_costs.hpp).
//
// Rooted at rank 0 on levels whose clusters are contiguous rank ranges, every subtree covers a
// contiguous range of ranks starting at its root, and the children listed in reverse cover the
// rest of it in rank order: the order a non-commutative reduction needs.
#pragma once

#include <cstdint>
#include <vector>

#include "scomm/topo/level_costs.hpp"
#include "scomm/topo/levels.hpp"

namespace scomm::topo {

struct MultilevelNode {
  int parent = -1;        // -1 at the root
  int parent_stage = -1;  // the stage of the message from the parent
  // In sending order: the slowest stage first, within a stage the largest subtree first.
  std::vector<int> children;
  std::vector<int> subtree_ranks;  // per child: the ranks its subtree holds
};

// The node of `rank` in the tree rooted at `root` for messages of `bytes` (each of `segments`
// pipelined pieces); O(depth log runs) plus its children.
MultilevelNode multilevel_node(const Levels& levels, const LevelCosts& costs, int rank, int root,
                               std::int64_t bytes, std::int64_t segments = 1);

// The ranks of the subtree of `rank` in receiving order (itself, then its children's subtrees
// in reverse sending order), consecutive ranks merged into runs. O(subtree size) nodes built:
// only the root of a gather or scatter needs it, to place the blocks in rank order.
std::vector<Run> subtree_runs(const Levels& levels, const LevelCosts& costs, int rank, int root,
                              std::int64_t bytes);

// The representative of `cluster` of `level` for a tree rooted at `root`.
int representative(const Levels& levels, int level, int cluster, int root);

}  // namespace scomm::topo
