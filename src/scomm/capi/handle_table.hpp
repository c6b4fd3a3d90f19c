// Integer handles for C API objects. A handle packs a slot index and the slot's generation, so a
// freed or stale handle is reported as an error instead of reaching freed memory.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "scomm/base/error.hpp"

namespace scomm::capi {

template <typename T>
class HandleTable {
 public:
  static constexpr int kIndexBits = 22;  // 4M live objects
  static constexpr int kGenerationMask = (1 << (31 - kIndexBits)) - 1;

  // Handles below `first` are reserved for predefined objects (0 is always the null handle).
  explicit HandleTable(int first) : first_(first) {}

  int insert(T value) { return emplace(std::move(value)); }

  // Builds the object in its slot.
  template <typename... Args>
  int emplace(Args&&... args) {
    std::size_t slot;
    if (free_.empty()) {
      slot = slots_.size();
      if (static_cast<int>(slot) + first_ >= (1 << kIndexBits))
        throw Error(ErrorClass::kNoMem, "too many live handles");
      slots_.push_back({});
    } else {
      slot = free_.back();
      free_.pop_back();
    }
    slots_[slot].value.emplace(std::forward<Args>(args)...);
    return encode(slot);
  }

  // The object behind `handle`, or nullptr when the handle is not live.
  T* find(int handle) {
    const auto slot = static_cast<std::size_t>((handle & ((1 << kIndexBits) - 1)) - first_);
    if (handle < first_ || slot >= slots_.size() || !slots_[slot].value) return nullptr;
    if (encode(slot) != handle) return nullptr;
    return &*slots_[slot].value;
  }

  // Frees a live handle; returns false when it is not live.
  bool erase(int handle) {
    if (find(handle) == nullptr) return false;
    erase_live(handle);
    return true;
  }

  // Frees a handle the caller has just found live (no second lookup).
  void erase_live(int handle) {
    const auto slot = static_cast<std::size_t>((handle & ((1 << kIndexBits) - 1)) - first_);
    slots_[slot].value.reset();
    slots_[slot].generation = (slots_[slot].generation + 1) & kGenerationMask;
    free_.push_back(slot);
  }

  std::size_t live() const { return slots_.size() - free_.size(); }
  // Bytes of one slot (the object and its generation), what each live handle costs in the table.
  static constexpr std::size_t slot_bytes() noexcept { return sizeof(Slot); }

 private:
  struct Slot {
    std::optional<T> value;
    int generation = 0;
  };

  int encode(std::size_t slot) const {
    return (slots_[slot].generation << kIndexBits) | (static_cast<int>(slot) + first_);
  }

  int first_;
  std::vector<Slot> slots_;
  std::vector<std::size_t> free_;
};

}  // namespace scomm::capi
