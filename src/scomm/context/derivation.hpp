// Local creation: a communicator derives its children's contexts without communication, from the
// block of ids its collective ancestor reserved at every member ("concatenation of counters",
// like Open MPI 5's exCID sub-ids).
//
// A communicator owns the ids [first, first + 2^bits) of its block: its own id is `first`, and its
// k-th child slot (k = 1..bits) the buddy range [first + 2^(bits-k), first + 2^(bits-k+1)), which
// that child owns in turn with bits - k bits. Ranges of different slots are disjoint and never
// contain the parent's id, so along any chain of local creations ids stay distinct. Every member
// of the parent derives the same child context provided all of them make the same local
// creations on the parent in the same order -- the rule MPI already sets for collective calls.
//
// Each slot is taken once, never again: a member that has freed a child cannot know that the
// others have, so a slot taken again could let a member that ran ahead send on the new child
// while another still receives on the old one, under the same id. Once a communicator's slots
// are used up, each further child takes a whole fresh block (comm::next_local_context).
#pragma once

#include <cstdint>

#include "scomm/context/context_id.hpp"

namespace scomm::context {

// Eight bytes, so that it travels in one register (local creation passes it down several calls);
// one that names no ids (first == kNoContext, as built by default) stands for "none", where an
// optional would add a flag and the copies local creation makes of it would go through memory.
struct Derivation {
  ContextId first = kNoContext;  // the communicator's own id
  std::uint16_t bits = 0;        // log2 of the ids it owns
  std::uint16_t used = 0;        // slots taken so far, 1..used

  explicit operator bool() const noexcept { return first != kNoContext; }
  ContextId span() const noexcept { return ContextId{1} << bits; }
  int slots_left() const noexcept { return bits - used; }
};
static_assert(sizeof(Derivation) == 8);

// log2 of a collectively allocated block's ids unless SCOMM_DERIVE_BITS says otherwise: four
// local children from a block's own slots.
inline constexpr int kDefaultDeriveBits = 4;

// The derivation of the parent's next local child, or none when its slots are used up.
inline Derivation derive_child(Derivation& parent) noexcept {
  if (parent.used == parent.bits) return {};
  const int slot = ++parent.used;
  const int child_bits = parent.bits - slot;
  return Derivation{parent.first + (ContextId{1} << child_bits),
                    static_cast<std::uint16_t>(child_bits), 0};
}

}  // namespace scomm::context
