// Local creation: a communicator derives its children's contexts without communication, from the
// block of ids its collective ancestor reserved at every member ("concatenation of counters",
// like Open MPI 5's exCID sub-ids).
//
// A communicator owns the ids [first, first + 2^bits) of its block: its own id is `first`, and its
// k-th live child slot (k = 1..bits) the buddy range [first + 2^(bits-k), first + 2^(bits-k+1)),
// which that child owns in turn with bits - k bits. Ranges of different slots are disjoint and
// never contain the parent's id, so along any chain of local creations ids stay distinct. Slots
// are taken in turn (creation number modulo bits), so every member of the parent derives the same
// child context provided all of them make the same local creations on the parent in the same
// order -- the rule MPI already sets for collective calls.
#pragma once

#include <cstdint>
#include <optional>

#include "scomm/context/context_id.hpp"

namespace scomm::context {

struct Derivation {
  ContextId first = kNoContext;  // the communicator's own id
  int bits = 0;                  // log2 of the ids it owns
  std::uint32_t created = 0;     // local creations made on it so far

  ContextId span() const noexcept { return ContextId{1} << bits; }
};

// The derivation of the parent's next local child, or nullopt when the parent owns no id besides
// its own (the caller then allocates a fresh block collectively). Counts the creation either way.
inline std::optional<Derivation> derive_child(Derivation& parent) noexcept {
  const std::uint32_t creation = parent.created++;
  if (parent.bits == 0) return std::nullopt;
  const int slot = static_cast<int>(creation % static_cast<std::uint32_t>(parent.bits)) + 1;
  const int child_bits = parent.bits - slot;
  return Derivation{parent.first + (ContextId{1} << child_bits), child_bits, 0};
}

}  // namespace scomm::context
