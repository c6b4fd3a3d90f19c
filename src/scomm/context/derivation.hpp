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

// Eight bytes, so that it travels in one register (local creation passes it down several calls).
struct Derivation {
  ContextId first = kNoContext;  // the communicator's own id
  std::uint16_t bits = 0;        // log2 of the ids it owns
  std::uint16_t last_slot = 0;   // slot of its latest local creation (0: none yet)

  ContextId span() const noexcept { return ContextId{1} << bits; }
};
static_assert(sizeof(Derivation) == 8);

// The derivation of the parent's next local child, or nullopt when the parent owns no id besides
// its own (the caller then allocates a fresh block collectively).
inline std::optional<Derivation> derive_child(Derivation& parent) noexcept {
  if (parent.bits == 0) return std::nullopt;
  // Slots 1..bits in turn, without a division: this runs on every local creation.
  const int slot = parent.last_slot == parent.bits ? 1 : parent.last_slot + 1;
  parent.last_slot = static_cast<std::uint16_t>(slot);
  const int child_bits = parent.bits - slot;
  return Derivation{parent.first + (ContextId{1} << child_bits),
                    static_cast<std::uint16_t>(child_bits), 0};
}

}  // namespace scomm::context
