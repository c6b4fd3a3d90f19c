// Collective sends that scomm copies and lets go of: the operation that posts one goes on
// without waiting for its MPI request, which the process reaps later. Open MPI's shared-memory
// transport completes a send of more than 256 bytes only once the receiver has taken the
// message and returned its fragment, so a collective's sender would otherwise wait for the
// receiver to run: a round trip on dedicated cores, a time slice on shared ones. MPI lets a
// collective return once the caller's buffer may be reused, which the copy ensures.
//
// Bounded: a fixed number of slots of at most `max_bytes` each, allocated on first use. When
// every slot is busy a send is not detached (the caller sends as before), so detaching never
// waits and never needs the receiver to match. Slots are reaped only once all are busy: testing
// a send still in flight costs a pass of MPI's progress engine, in which Open MPI yields the core
// when its ranks outnumber the cores (2x slower broadcasts on this VM when reaped at every send).
// The destructor (SCOMM_Finalize) waits for the sends still in flight, before the base
// communicators are freed.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace scomm::p2p {

struct DetachLimits {
  std::int64_t min_bytes = 1;
  std::int64_t max_bytes = 0;  // 0: nothing is detached
  int slots = 64;

  // Open MPI: 257 B (above its inline sends, which complete at once) to 4 KiB (its shared-memory
  // eager limit); other MPIs: off (MPICH completes eager sends by copying them itself).
  // SCOMM_DETACHED_SENDS=off or MIN:MAX (bytes) overrides it; Error(kArg) for other values.
  static DetachLimits from_environment();
};

class DetachedSends {
 public:
  explicit DetachedSends(const DetachLimits& limits);
  ~DetachedSends();
  DetachedSends(const DetachedSends&) = delete;
  DetachedSends& operator=(const DetachedSends&) = delete;

  // Whether a message of `bytes` is one to detach. Inline: every collective send asks.
  bool wanted(std::int64_t bytes) const noexcept {
    return bytes >= limits_.min_bytes && bytes <= limits_.max_bytes;
  }
  // Copies `count` elements of `type` at `data` (a contiguous type with lower bound 0, `bytes`
  // in all, wanted()) and sends them to base rank `dest` with MPI tag `mpi_tag` on `base`.
  // False, having done nothing, when every slot is busy. Throws Error on an MPI failure (of this
  // send, or of an earlier one found complete).
  bool post(const void* data, std::int64_t bytes, int count, MPI_Datatype type, int dest,
            int mpi_tag, MPI_Comm base);

 private:
  void reap();

  DetachLimits limits_;
  std::unique_ptr<std::byte[]> storage_;  // slots x max_bytes
  std::vector<MPI_Request> requests_;     // per slot; MPI_REQUEST_NULL when free
  std::vector<int> free_;                 // free slots
  std::vector<int> completed_;            // MPI_Testsome's indices
};

}  // namespace scomm::p2p
