// Keeps freed memory blocks of one size for reuse. Communicators are created and freed in tight
// loops (recursive splitting), and taking a block off a free list costs a fraction of malloc +
// free. Owned by the library context, never global.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace scomm::base {

class BlockRecycler {
 public:
  // Keeps at most `capacity` free blocks; the size class is that of the first block returned.
  explicit BlockRecycler(std::size_t capacity) { free_.reserve(capacity); }
  ~BlockRecycler() {
    for (void* block : free_) ::operator delete(block);
  }
  BlockRecycler(const BlockRecycler&) = delete;
  BlockRecycler& operator=(const BlockRecycler&) = delete;

  void* allocate(std::size_t bytes) {
    if (bytes != block_bytes_ || free_.empty()) return ::operator new(bytes);
    void* block = free_.back();
    free_.pop_back();
    return block;
  }

  void deallocate(void* block, std::size_t bytes) noexcept {
    if (block_bytes_ == 0) block_bytes_ = bytes;
    if (bytes == block_bytes_ && free_.size() < free_.capacity())
      free_.push_back(block);  // within the reserved capacity: cannot throw
    else
      ::operator delete(block);
  }

 private:
  std::size_t block_bytes_ = 0;
  std::vector<void*> free_;
};

}  // namespace scomm::base
