// Janus quicksort: a perfectly balanced distributed quicksort (Axtmann et al., IPDPS 2018; RBC
// slides 18-29) for any number of processes.
//
// On return, the rank i of P holds the i-th of P consecutive slices of the globally sorted
// sequence: positions [floor(i n / P), floor((i + 1) n / P)), so every rank ends with n/P
// elements (+-1) whatever its input size. The same algorithm is built twice: over scomm range
// communicators (subgroups created locally, O(1)) and over native MPI communicators
// (subgroups from MPI_Comm_split, collective and O(p)); docs in apps/janus_sort/README.md.
//
// T: an arithmetic type with a strict weak order under < (no NaN). Collective over `comm`.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "scomm.h"

namespace janus {

// Where one process's time went in the sorts it was given to (Options::stats), added to.
struct Stats {
  // Creating and freeing subgroup communicators: local range creations, or MPI_Comm_split and
  // MPI_Comm_free (the rest of a sort, its collectives and messages, is the same in both builds).
  double creation_seconds = 0;
  int creations = 0;  // subgroup creations this process took part in
};

struct Options {
  // Pivot sampling, the same at every rank. Runs still differ: a receiver takes each part's
  // elements in the order they arrive, and the next step samples from that order.
  std::uint64_t seed = 0x5eed;
  int samples = 15;  // pivot = median of this many uniform samples of the group (odd)
  // Groups of up to this many ranks learn their prefix and totals of the partition counts from
  // one allgather (log p rounds, 24 p bytes a rank); larger ones from a scan and a broadcast.
  int gather_counts_max_ranks = 64;
  Stats* stats = nullptr;  // when set, the sort adds its figures to it
};

// Over scomm communicators: subgroups with SCOMM_Comm_create_range.
template <class T>
void sort(std::vector<T>& data, SCOMM_Comm comm, const Options& options = {});

// Over MPI communicators: subgroups with MPI_Comm_split.
template <class T>
void sort_mpi(std::vector<T>& data, MPI_Comm comm, const Options& options = {});

// What a sorted result must satisfy, checked collectively over `comm`.
struct Check {
  bool sorted = false;       // locally sorted, and each rank's last <= the next rank's first
  bool balanced = false;     // rank i holds exactly the i-th slice's size
  bool permutation = false;  // the same multiset as the input (count + order-free hash)
  bool ok() const { return sorted && balanced && permutation; }
};

// An order-free fingerprint of a rank's elements; combine over ranks with `check`.
template <class T>
std::uint64_t fingerprint(const std::vector<T>& data);

// `input_fingerprint` and `input_count` are this rank's values before sorting.
template <class T>
Check check(const std::vector<T>& data, std::uint64_t input_fingerprint, std::uint64_t input_count,
            MPI_Comm comm);

}  // namespace janus
