// Which base communicator and tag prefix carry each context id. Ids come in blocks of
// 2^derive_bits (collective creation takes a block, local creation derives the ids inside it), so
// consecutive ids and block starts alike would all land on the first base communicator if the id's
// high bits named the base. They are spread instead: to serve a receive of MPI_ANY_TAG, the
// matching engine takes every arrived message of that receive's base communicator off MPI, and the
// communicators on the other bases keep MPI's own matching meanwhile.
//
// The id's bits are mixed by id ^ (id >> derive_bits), a bijection on ids below 2^k for every k
// (an xorshift), whose low bits then name the base and high bits the prefix: a block's ids and the
// first ids of consecutive blocks each go to different bases.
#pragma once

#include <algorithm>

#include "scomm/context/context_id.hpp"

namespace scomm::context {

class BasePlacement {
 public:
  struct Place {
    int base;
    ContextId prefix;
  };

  // 2^base_bits base communicators; ids in blocks of 2^derive_bits.
  BasePlacement(int base_bits, int derive_bits) noexcept
      : base_bits_(base_bits), shift_(std::max(derive_bits, 1)) {}

  int base_count() const noexcept { return 1 << base_bits_; }

  Place place(ContextId id) const noexcept {
    const ContextId mixed = id ^ (id >> shift_);
    return {static_cast<int>(mixed & ((ContextId{1} << base_bits_) - 1)), mixed >> base_bits_};
  }
  int base_of(ContextId id) const noexcept { return place(id).base; }

  // The id place() puts at (base, prefix).
  ContextId id_at(int base, ContextId prefix) const noexcept {
    const ContextId mixed = (prefix << base_bits_) | static_cast<ContextId>(base);
    ContextId id = mixed;
    for (ContextId high = mixed >> shift_; high != 0; high >>= shift_) id ^= high;
    return id;
  }

 private:
  int base_bits_;
  int shift_;
};

}  // namespace scomm::context
