// What one rank's state costs, part by part and per communicator: the maps (true bytes of the
// map objects its channels and groups keep, each shared object once), the context table (every
// storage kind built with the same live ids), the held-id bits and block pool, the channel and
// handle-table slot of every communicator, and the per-process objects. A heap measurement
// (glibc mallinfo2) of building the same state checks the sum.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rank_state.hpp"

namespace scomm::bench {

struct Parts {
  std::size_t maps = 0;             // map objects, each shared one once
  std::size_t context_table = 0;    // the runtime's storage (RankStateOptions::storage)
  std::size_t world_run_table = 0;  // its room for the world's first run of blocks, made once
  std::size_t held_ids = 0;         // one bit per context id
  std::size_t block_pool = 0;       // bits per block of ids, for collective allocation
  std::size_t channels = 0;         // a p2p::Channel per communicator
  std::size_t handles = 0;          // handle-table slots: capi::CommEntry (Comm, error handler),
                                    // and group::Group for groups
  std::size_t grids = 0;            // Cartesian grids, measured on the heap
  std::size_t process = 0;          // comm::Runtime and capi::Context objects themselves

  std::size_t total() const noexcept {
    return maps + context_table + world_run_table + held_ids + block_pool + channels + handles +
           grids + process;
  }
  // What grows with the communicators (the rest is paid once per process).
  std::size_t per_communicator_parts() const noexcept {
    return maps + context_table + channels + handles + grids;
  }
};

// Communicators (or groups) of one kind, e.g. the 100 odd/even splits.
struct KindSummary {
  std::string kind;
  bool is_group = false;  // MPI_Group only, no communicator
  int count = 0;
  std::vector<std::string> representations;
  Rank members_min = 0, members_max = 0;
  std::size_t map_bytes_total = 0, map_bytes_max = 0;  // own map objects (shared ones: 0)
  int shared_maps = 0;  // maps shared with an earlier communicator (dup)
  bool all_regular = true;
};

// What the same maps cost in other systems' published structures (baselines.hpp), per unique map.
struct PublishedSizes {
  double mpich = 0;            // MPIR_Pmap: 32 B strided, else 8 B per member
  double open_mpi_dense = 0;   // default groups: a proc pointer per member
  double open_mpi_sparse = 0;  // --enable-sparse-groups: the smallest of its four formats
  double plain_array = 0;      // 4 B per member (VC-VCRT-like lookup table)
};

struct TableSize {
  std::string storage;
  std::size_t bytes = 0;
};

struct RankAnalysis {
  Rank self = 0;
  int communicators = 0, groups = 0;
  Parts parts;
  // mallinfo2 growth while building the state, less the analyzer's own records; includes what
  // the parts leave out: malloc headers, shared_ptr control blocks, vectors' spare capacity.
  std::size_t heap_measured = 0;
  // A communicator's message queues, made on its first collective or MPI_ANY_TAG receive.
  std::size_t queues_when_used = 0;
  std::size_t max_regular_map_bytes = 0;  // over communicators and groups with a box map
  std::vector<KindSummary> kinds;
  std::vector<TableSize> tables;  // every storage kind with this rank's live ids
  PublishedSizes published;
};

// Per-object sizes taken from the library's types.
struct ObjectSizes {
  std::size_t channel, comm, comm_entry, handle_slot, runtime, capi_context, box, queues;
};
ObjectSizes object_sizes();

// Heap bytes in use now (glibc mallinfo2), for measuring what building something keeps.
std::size_t heap_in_use();

RankAnalysis analyze(RankState& state, std::size_t heap_measured);

}  // namespace scomm::bench
