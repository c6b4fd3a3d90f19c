// Keeps freed memory blocks of one size for reuse. Communicators are created and freed in tight
// loops (recursive splitting), and taking a block off a free list costs a fraction of malloc +
// free. Owned by the library context, never global.
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace scomm::base {

class BlockRecycler {
 public:
  // Blocks of `block_bytes`; keeps at most `capacity` of them free.
  BlockRecycler(std::size_t block_bytes, std::size_t capacity)
      : block_bytes_(block_bytes), capacity_(capacity), free_(new void*[capacity]) {}
  ~BlockRecycler() {
    for (std::size_t i = 0; i < count_; ++i) ::operator delete(free_[i]);
  }
  BlockRecycler(const BlockRecycler&) = delete;
  BlockRecycler& operator=(const BlockRecycler&) = delete;

  void* allocate() {
    if (count_ == 0) return ::operator new(block_bytes_);
    return free_[--count_];
  }
  void deallocate(void* block) noexcept {
    if (count_ < capacity_)
      free_[count_++] = block;
    else
      ::operator delete(block);
  }

 private:
  std::size_t block_bytes_, capacity_;
  std::size_t count_ = 0;
  std::unique_ptr<void*[]> free_;
};

}  // namespace scomm::base
