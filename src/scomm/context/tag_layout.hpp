// How a context and a user tag share one MPI tag on a base communicator. MPI_TAG_UB is at least
// 2^15-1 and is 2^31-1 in Open MPI, 2^28-1 in Debian's MPICH: the low `user_bits` carry the user's
// tag, the bits above it a context prefix. Contexts beyond one base communicator's prefixes go to
// further duplicated base communicators (base_placement.hpp says which).
#pragma once

#include "scomm/context/context_id.hpp"

namespace scomm::context {

class TagLayout {
 public:
  static constexpr int kMinUserBits = 15;
  // Tags reserved above the published limit for scomm's own collectives.
  static constexpr int kInternalTags = 256;
  // The first 192 go round-robin to collectives in their order on a communicator, the next 63
  // to create_group (which only some members call) by its user tag modulo 63, and the last to
  // the block allocations of local creation and check mode's agreement on each local creation
  // (which count creations, not collectives).
  static constexpr int kSequencedTags = 192;
  static constexpr int kGroupTags = kInternalTags - kSequencedTags - 1;
  static constexpr int kFreshBlockTag = kInternalTags - 1;

  // Throws Error(kNotSupported) when tag_ub leaves fewer than kMinUserBits + 1 bits.
  static TagLayout from_tag_ub(int tag_ub, int user_bits = kMinUserBits);

  int user_bits() const noexcept { return user_bits_; }
  int prefix_bits() const noexcept { return prefix_bits_; }
  ContextId prefixes_per_base() const noexcept { return ContextId{1} << prefix_bits_; }
  // Largest tag a user may pass (SCOMM_TAG_UB).
  int published_tag_ub() const noexcept { return (1 << user_bits_) - 1 - kInternalTags; }
  // First tag of the internal range (collectives), above every user tag.
  int internal_tag(int k) const noexcept { return published_tag_ub() + 1 + k; }

  // The MPI tag of user tag `tag` on the base where a context has tag prefix `prefix`
  // (BasePlacement).
  int mpi_tag(ContextId prefix, int tag) const noexcept {
    return static_cast<int>(prefix) << user_bits_ | tag;
  }
  int user_tag_of(int mpi_tag) const noexcept { return mpi_tag & ((1 << user_bits_) - 1); }
  ContextId prefix_of(int mpi_tag) const noexcept {
    return static_cast<ContextId>(mpi_tag) >> user_bits_;
  }

 private:
  int user_bits_ = kMinUserBits;
  int prefix_bits_ = 0;
};

}  // namespace scomm::context
