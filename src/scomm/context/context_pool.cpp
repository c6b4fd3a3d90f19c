#include "scomm/context/context_pool.hpp"

#include <bit>
#include <string>

#include "scomm/base/error.hpp"

namespace scomm::context {

ContextPool::ContextPool(ContextId capacity)
    : capacity_(capacity),
      held_bits_((static_cast<std::size_t>(capacity) + 63) / 64, 0),
      reserved_bits_(held_bits_.size(), 0) {}

std::size_t ContextPool::bytes() const noexcept {
  const std::size_t node = sizeof(void*) + sizeof(decltype(reserver_)::value_type);
  return sizeof(*this) +
         (held_bits_.capacity() + reserved_bits_.capacity()) * sizeof(std::uint64_t) +
         reserver_.bucket_count() * sizeof(void*) + reserver_.size() * node;
}

ContextId ContextPool::lowest_unused(ContextId from) const noexcept {
  for (std::size_t word = from / 64; word < held_bits_.size(); ++word) {
    std::uint64_t unused_bits = ~held_bits_[word] | reserved_bits_[word];
    if (word == from / 64) unused_bits &= ~std::uint64_t{0} << (from % 64);
    if (unused_bits != 0) {
      const auto id = static_cast<ContextId>(word * 64 + std::countr_zero(unused_bits));
      return id < capacity_ ? id : capacity_;
    }
  }
  return capacity_;
}

ContextId ContextPool::end_of_held() const noexcept {
  for (std::size_t word = held_bits_.size(); word-- > 0;)
    if (held_bits_[word] != 0)
      return static_cast<ContextId>(word * 64 + 64 - std::countl_zero(held_bits_[word]));
  return 0;
}

namespace {

// Bit k of word w: whether `has(first + 64w + k)`.
template <typename Has>
void fill_mask(ContextId first, std::span<std::uint64_t> words, Has&& has) noexcept {
  for (std::size_t w = 0; w < words.size(); ++w) {
    std::uint64_t bits = 0;
    for (unsigned k = 0; k < 64; ++k)
      bits |= std::uint64_t{has(first + static_cast<ContextId>(64 * w + k))} << k;
    words[w] = bits;
  }
}

}  // namespace

void ContextPool::free_mask(ContextId first, std::span<std::uint64_t> words) const noexcept {
  fill_mask(first, words, [&](ContextId id) { return is_free(id); });
}

void ContextPool::unused_mask(ContextId first, std::span<std::uint64_t> words) const noexcept {
  fill_mask(first, words, [&](ContextId id) { return !in_use(id); });
}

void ContextPool::reserve(ContextId id, std::uint64_t priority) {
  if (!is_free(id))
    throw Error(ErrorClass::kIntern, "context " + std::to_string(id) + " is not free");
  held_bits_[id / 64] |= std::uint64_t{1} << (id % 64);
  reserved_bits_[id / 64] |= std::uint64_t{1} << (id % 64);
  if (priority != 0) reserver_[id] = priority;
  ++held_;
}

void ContextPool::take(ContextId id) noexcept {
  held_bits_[id / 64] |= std::uint64_t{1} << (id % 64);
  ++held_;
}

void ContextPool::commit(ContextId id) {
  if (!reserved(id))
    throw Error(ErrorClass::kIntern, "context " + std::to_string(id) + " is not reserved");
  drop_reservation(id);
}

std::uint64_t ContextPool::reserver(ContextId id) const noexcept {
  const auto it = reserver_.find(id);
  return it == reserver_.end() ? 0 : it->second;
}

bool ContextPool::any_reserved_up_to(ContextId first, ContextId count,
                                     std::uint64_t priority) const noexcept {
  for (ContextId id = first; id < first + count && id < capacity_; ++id)
    if (reserved(id) && reserver(id) <= priority) return true;
  return false;
}

void ContextPool::throw_not_held(ContextId id) {
  throw Error(ErrorClass::kIntern, "context " + std::to_string(id) + " is not held");
}

void ContextPool::drop_reservation(ContextId id) {
  reserved_bits_[id / 64] &= ~(std::uint64_t{1} << (id % 64));
  reserver_.erase(id);
}

}  // namespace scomm::context
