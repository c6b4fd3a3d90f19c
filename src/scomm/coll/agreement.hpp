// Check mode (SCOMM_COLL_CHECK=on): before a blocking collective runs, its members agree on what
// they called -- the operation, the root, each member's block in bytes, the reduction operation
// (a user-defined one by whether it commutes), a digest of the count array every member must
// pass alike, and whether the member's own argument checks failed -- in one recursive-doubling
// MAX over the communicator. A disagreement, or arguments invalid at some member (a negative
// count in the root's array of a gatherv), fails the call at every member with the same error,
// where it would otherwise hang or give a wrong result (MPI leaves such calls undefined, as
// detecting them costs every call this round).
// Nonblocking collectives are not checked: starting one must not wait for the other members.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>

#include "scomm/coll/collective.hpp"
#include "scomm/coll/selection.hpp"
#include "scomm/group/group.hpp"

namespace scomm::coll {

// What a member called, e.g. Signature(Operation::kBcast).rooted_at(root).blocks({count, type}).
// Cheap to build: sizes and digests are computed only in check mode.
struct Signature {
  struct Block {  // each member's block of a uniform operation
    int count;
    MPI_Datatype type;
  };
  explicit Signature(Operation called = Operation::kBarrier) : operation(called) {}
  Signature& rooted_at(int rank) { return root = rank, *this; }
  Signature& blocks(Block each) { return block = each, *this; }
  Signature& reducing(MPI_Op reduction) { return op = reduction, *this; }
  // A count of `type` per member that every member passes alike, compared in bytes
  // (allgatherv's and reduce_scatter's receive counts).
  struct Counts {
    const int* each = nullptr;
    MPI_Datatype type = MPI_DATATYPE_NULL;
  };
  Signature& counts_alike(const int* counts, MPI_Datatype type) {
    return same_counts = {counts, type}, *this;
  }

  Operation operation;
  int root = -1;               // -1: the operation has no root
  std::optional<Block> block;  // none: members' blocks may differ (v-forms)
  MPI_Op op = MPI_OP_NULL;     // the reduction's; MPI_OP_NULL: none
  Counts same_counts;
};

// SCOMM_COLL_CHECK: "on" turns check mode on; unset, empty or "off" leaves it off; Error(kArg)
// else.
bool check_mode_from_environment();

// Check mode for local creation (SCOMM_Comm_create_range and SCOMM_Comm_create_from_group,
// called by every member of the parent): the members agree on the creation before any takes a
// derivation slot, in the order of local creations (the parent's collectives may come between
// them in another order at each member). Members that made their local creations in different
// orders call different creations here, and every one fails with Error(kArg), where the
// creations would go on and could deliver a message to the wrong communicator (docs/DESIGN.md,
// "When two communicators are guaranteed distinct contexts").
void agree_on_range(const Call& call, int first, int last, int stride);
// The group's members in order are compared (by a digest); null: this member's group handle is
// invalid, which it reports itself once the others know.
void agree_on_group(const Call& call, const group::Group* group);

// Check mode around a blocking call's `launch()`: the members agree on its signature just before
// its first message (agree_before_launch, collective.hpp), after it returns where it sent none,
// or, where its own checks throw, with their error, so that arguments invalid at one member fail
// the call at every member.
template <typename Launch>
p2p::Request launch_agreed(Call call, const Signature& signature, Launch&& launch) {
  PendingAgreement agreement{signature};
  call.agreement = &agreement;
  try {
    p2p::Request done = launch(call);
    agree_before_launch(call);
    return done;
  } catch (const Error& error) {
    if (!agreement.settled) settle_agreement(call, &error);
    throw;
  }
}

}  // namespace scomm::coll
