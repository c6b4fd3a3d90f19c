// Integer handles for C API objects. A handle packs its table's kind, a slot index and the slot's
// generation, so that a freed or stale handle, or one of another kind (a group's given for a
// communicator), is reported as an error instead of reaching freed memory or another object.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "scomm/base/error.hpp"

namespace scomm::capi {

// Whether destroying a T may run user callbacks, which may make or free handles of its table
// (RequestEntry: an idup's pending attribute copies, deleted with their delete callbacks).
template <typename T>
concept DestroyedOutOfItsSlot = T::kDestroyedOutOfItsSlot;

template <typename T>
class HandleTable {
 public:
  static constexpr int kIndexBits = 20;  // 1M live objects of each kind
  static constexpr int kKindShift = 28;  // 3 bits of kind, below the sign bit
  static constexpr int kGenerationMask = (1 << (kKindShift - kIndexBits)) - 1;
  static constexpr int kIndexMask = (1 << kIndexBits) - 1;
  // Of the kinds (0-7), those from 4 on: one test tells the plain requests' table (kind 4) from
  // the general requests' (kind 3).
  static constexpr int kUpperKindBit = 4 << kKindShift;

  // The handle of the predefined object at index `index` (below every table's `first`) of a
  // table of kind `kind`, as scomm.h defines it.
  static constexpr int predefined(int kind, int index) noexcept {
    return (kind << kKindShift) | index;
  }

  // Handles below `first` are reserved for predefined objects (0 is always the null handle).
  // Every handle carries `kind` (0-7), so that no handle of a table of another kind finds
  // anything here.
  constexpr HandleTable(int first, int kind) : first_(first), kind_(kind << kKindShift) {
    assert(first >= 1 && kind >= 0 && kind <= 7);
  }

  // Whether `handle` is of a kind from 4 on (it may not be live).
  static constexpr bool has_upper_kind(int handle) noexcept {
    return (handle & kUpperKindBit) != 0;
  }

  int insert(T value) { return emplace(std::move(value)); }

  // Builds the object in its slot; when building throws, the slot stays free.
  template <typename... Args>
  int emplace(Args&&... args) {
    if (!has_free_slot()) [[unlikely]]
      grow();
    return emplace_in_free_slot(std::forward<Args>(args)...);
  }

  // Whether emplace_in_free_slot() may be called: the table need not grow.
  bool has_free_slot() const noexcept { return free_head_ != kNoSlot; }
  // emplace() when has_free_slot(): it cannot fail but where building the object does.
  template <typename... Args>
  int emplace_in_free_slot(Args&&... args) noexcept(std::is_nothrow_constructible_v<T, Args...>) {
    const std::uint32_t slot = free_head_;
    Slot& s = slots_[slot];
    ::new (&s.value) T(std::forward<Args>(args)...);
    free_head_ = s.next_free;
    s.handle =
        kind_ | (static_cast<int>(s.generation) << kIndexBits) | (static_cast<int>(slot) + first_);
    return s.handle;
  }

  // The object behind `handle`, or nullptr when the handle is not live: one bounds check and one
  // comparison, as every call on a handle starts here.
  T* find(int handle) noexcept {
    const std::size_t slot = slot_of(handle);
    if (slot >= slots_.size()) return nullptr;  // also handles below first_ (wrapped around)
    Slot& s = slots_[slot];
    return s.handle == handle ? &s.value : nullptr;
  }

  // Frees a live handle; returns false when it is not live.
  bool erase(int handle) noexcept {
    if (find(handle) == nullptr) return false;
    erase_live(handle);
    return true;
  }

  // The object behind a handle the caller has found live (no second check).
  T& get_live(int handle) noexcept { return slots_[slot_of(handle)].value; }

  // Gives the object behind live `handle` the slot's next handle, which no one holds yet, and
  // returns it: `handle` turns stale, as if freed, while the object stays (a communicator its
  // user has freed, kept for its persistent requests).
  int renew(int handle) noexcept {
    Slot& s = slots_[slot_of(handle)];
    ++s.generation;  // wraps at kGenerationMask
    s.handle = kind_ | (static_cast<int>(s.generation) << kIndexBits) | (handle & kIndexMask);
    return s.handle;
  }

  // Calls visit(handle, object) for every live handle.
  template <typename Visit>
  void for_each_live(Visit&& visit) {
    for (Slot& s : slots_)
      if (s.handle != kFree) visit(s.handle, s.value);
  }

  // Frees a handle the caller has just found live (no second lookup). An object whose
  // destruction may call back into the library (DestroyedOutOfItsSlot) leaves its slot first
  // and is destroyed once the slot is free, as the callbacks may take handles of this table.
  void erase_live(int handle) noexcept {
    const std::size_t slot = slot_of(handle);
    if constexpr (DestroyedOutOfItsSlot<T>) {
      const T leaving(std::move(slots_[slot].value));
      free_slot(slot);
    } else {
      free_slot(slot);
    }
  }

  // An empty table whose slots go on counting generations from this one's: no handle of this
  // table, live or freed, is live in it (SCOMM_Finalize, then SCOMM_Init, gives new handles),
  // but for the first `predefined` slots, where the next session makes its predefined objects
  // (SCOMM_COMM_WORLD) with the same handles again.
  HandleTable successor(std::size_t predefined = 0) const {
    HandleTable next(first_, kind_ >> kKindShift);
    next.slots_.resize(slots_.size());
    for (std::size_t slot = slots_.size(); slot-- > 0;) {
      Slot& s = next.slots_[slot];
      s.generation = slots_[slot].generation;
      if (slots_[slot].handle != kFree && slot >= predefined) ++s.generation;  // wraps
      s.next_free = next.free_head_;
      next.free_head_ = static_cast<std::uint32_t>(slot);
    }
    return next;
  }

  // Live handles, counted (a diagnostic: the table keeps no count, which every call would update).
  std::size_t live() const {
    return static_cast<std::size_t>(
        std::ranges::count_if(slots_, [](const Slot& s) { return s.handle != kFree; }));
  }
  // Bytes of one slot (the object and its generation), what each live handle costs in the table.
  static constexpr std::size_t slot_bytes() noexcept { return sizeof(Slot); }

 private:
  // A free slot's handle: no lookup reaches a slot with it (0 maps below every first_ >= 1).
  static constexpr int kFree = 0;

  // One more free slot, at the end. Out of line: the slots' reallocation moves every live object,
  // code that a flattened caller (SCOMM_Comm_create_range) would otherwise carry, and its stack
  // frame, on every call.
  [[gnu::noinline]] void grow() {
    if (static_cast<int>(slots_.size()) + first_ >= (1 << kIndexBits))
      throw Error(ErrorClass::kNoMem, "too many live handles");
    slots_.emplace_back();
    free_head_ = static_cast<std::uint32_t>(slots_.size() - 1);
  }

  void free_slot(std::size_t slot) noexcept {
    Slot& s = slots_[slot];
    s.value.~T();
    s.handle = kFree;
    ++s.generation;  // wraps at kGenerationMask
    s.next_free = free_head_;
    free_head_ = static_cast<std::uint32_t>(slot);
  }

  std::size_t slot_of(int handle) const noexcept {
    return static_cast<std::size_t>((handle & kIndexMask) - first_);
  }

  // The free slots form a list through the slots themselves, last freed first: taking and giving
  // back a slot allocates nothing, so freeing a handle cannot fail.
  static constexpr std::uint32_t kNoSlot = (1u << 24) - 1;
  static_assert(kIndexBits < 24);

  // A slot holds its object while its handle is live: the handle is the only flag (no
  // std::optional beside it), and the generation and the free list have fields of their own, so
  // that taking and giving back a slot are a few plain stores.
  struct Slot {
    Slot() noexcept {}  // free: no object
    // Moves the object of a live slot (the slots' vector grows).
    Slot(Slot&& other) noexcept(std::is_nothrow_move_constructible_v<T>)
        : handle(other.handle), generation(other.generation), next_free(other.next_free) {
      if (handle != kFree) ::new (&value) T(std::move(other.value));
    }
    Slot& operator=(Slot&&) = delete;
    ~Slot() {
      if (handle != kFree) value.~T();
    }
    union {
      T value;  // while the slot is live
    };
    int handle = kFree;                 // the live handle of the slot
    std::uint8_t generation = 0;        // of the slot's next handle
    std::uint32_t next_free = kNoSlot;  // while free: the next free slot
  };
  static_assert(kGenerationMask == std::numeric_limits<std::uint8_t>::max());

  int first_;
  int kind_;
  std::vector<Slot> slots_;
  std::uint32_t free_head_ = kNoSlot;
};

}  // namespace scomm::capi
