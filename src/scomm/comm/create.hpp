// Creating communicators.
//
// Local (no communication): create_range and create_from_group are called by every member of the
// parent, in the same order at every member (MPI's rule for collective calls); non-members of the
// result get nullopt. The child's context is derived from one of the parent's derivation slots
// (derivation.hpp), each taken once; once they are used up, each child takes a whole block of a
// run that one allocation over the parent reserves (next_local_context) -- every member reaches
// that creation, as all of them count the same creations.
//
// Collective: dup, split and create allocate one block over the parent with the runtime's
// algorithm, as nonblocking operations (idup, isplit) that blocking calls drive to the end. A
// split gives all its results the same block: they are disjoint, so no process holds two.
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>

#include "scomm/comm/comm.hpp"
#include "scomm/comm/runtime.hpp"
#include "scomm/p2p/request.hpp"

namespace scomm::comm {

// Collective over `mpi_comm`: a scomm communicator with the same members and ranks. Its context
// allocation polls MPI_Iallreduce and advances this process's pending operations meanwhile (a
// member may wait for one of them before it comes).
Comm from_mpi(Runtime& runtime, MPI_Comm mpi_comm, const group::MapPolicy& policy);
// SCOMM_Init's world, whose allocation also reserves up to `first_run` blocks for its local
// children (fewer when the algorithm finds no such run free). No process has a scomm operation
// pending yet, so every member blocks in MPI_Allreduce, which runs the MPI's tuned algorithms
// (SimGrid SMPI 3.32's MPI_Iallreduce posts all p^2 messages at once: 54 s of simulation at 256
// ranks, against well under one).
Comm world_from_mpi(Runtime& runtime, MPI_Comm world, const group::MapPolicy& policy,
                    context::ContextId first_run);
// Collective over the members: an MPI communicator with the same members and ranks, which the
// caller owns (MPI_Comm_free).
MPI_Comm to_mpi(Runtime& runtime, Comm& comm);

// Parent ranks first, first + stride, ... up to last (MPI range semantics).
std::optional<Comm> create_range(Runtime& runtime, Comm& parent, int first, int last, int stride,
                                 const group::MapPolicy& policy);
// `group` over base ranks, the same at every member of the parent, a subset of it.
std::optional<Comm> create_from_group(Runtime& runtime, Comm& parent, const group::Group& group);

// Called by the members of `group` only (a subset of the parent); `tag` (0..SCOMM_Tag_ub) tells
// concurrent calls on one parent apart. A caller outside the group (MPI_GROUP_EMPTY's, say) gets
// no communicator and talks to nobody, as MPI-3.1 6.4.2 has it.
std::optional<Comm> create_group(Runtime& runtime, Comm& parent, const group::Group& group,
                                 int tag);

// A collective creation in progress; result() is set once progress() returned true (nullopt
// for a process outside the new communicator).
class Creation : public p2p::Operation {
 public:
  virtual std::optional<Comm>& result() = 0;
};

// `blocking`: the caller drives the creation to the end before doing anything else (finish());
// its context allocation then has priority 0 (see allocation.hpp).
std::unique_ptr<Creation> start_dup(Runtime& runtime, Comm& parent, bool blocking);
std::unique_ptr<Creation> start_split(Runtime& runtime, Comm& parent, int color, int key,
                                      const group::MapPolicy& policy, bool blocking);
std::unique_ptr<Creation> start_create(Runtime& runtime, Comm& parent, const group::Group& group,
                                       bool blocking);
// The context of `parent`'s next local child: derived from one of its slots, or, once they are
// used up, a whole block of its reserved run (a run allocated over the parent, blocking, when
// none is left; with SCOMM_DERIVE_BITS = 0, blocks have no slots and every child allocates its
// own block so). `member`: whether the caller is a member of the child (a block a non-member
// takes goes back to the pool).
context::Derivation next_local_context(Runtime& runtime, Comm& parent, bool member);
// The longest run of blocks a communicator reserves at once: 8,192, or an eighth of the pool.
context::ContextId longest_run(const context::ContextPool& pool);
// The run of blocks SCOMM_Init reserves for the world with its own block (from_mpi's first_run).
context::ContextId world_first_run(const context::ContextPool& pool, int derive_bits);
// The map of parent ranks first, first + stride, ... (count of them) over base ranks: a box
// when the parent's map is one, else the group layer's composition.
group::MapPtr range_map(const p2p::Channel& parent, int first, int count, int stride,
                        const group::MapPolicy& policy);

// Throws Error(kGroup) unless every member of `group` is a member of `parent`.
void check_subset(const group::Group& parent, const group::Group& group);

// Drives a creation to the end, advancing the engine's background operations between its polls
// (MPI's progress rule: a pending idup or isplit, whose reservations this creation's allocation
// may wait for, releases them only as it advances).
std::optional<Comm> finish(Runtime& runtime, Creation& creation);

}  // namespace scomm::comm
