// Waiting for a rare event that may take long: spin while it is likely to come soon, then give
// the core away between polls, so that a rank sharing its core with the ranks it waits for lets
// them run instead of burning it.
#pragma once

#include <algorithm>
#include <chrono>
#include <thread>

namespace scomm {

// The naps of one wait: the first `first` long, each next one twice as long, up to 4 * first. A
// nap costs its thread about as much CPU however short (12-20 us on the 2-core VM), and the rank
// that naps is one alone on its core, waiting for ranks that share another for a scheduling slice:
// growing naps wake it fewer times in that slice, for the same wall time (measured in split-halves:
// 2 CPU ns less a creation at P = 3 and 5, none at P = 2, 4, 8).
class GrowingNap {
 public:
  explicit GrowingNap(std::chrono::microseconds first) noexcept
      : next_(first), longest_(4 * first) {}
  std::chrono::microseconds take() noexcept {
    const auto nap = next_;
    next_ = std::min(2 * next_, longest_);
    return nap;
  }

 private:
  std::chrono::microseconds next_, longest_;
};

// Polls `done()` until it returns true: back to back for `spin`, then yielding the core between
// polls while a yield lets another process run for at least `nap` (a process waiting for this
// core: maybe the one this rank waits for), and sleeping when a yield came straight back (no
// process was waiting for this core, but one on another core may be moved onto it while it idles):
// `nap` first, then longer (GrowingNap). A yield costs a fraction of a microsecond; a nanosleep
// 12-20 us of CPU on the 2-core VM and at least 80 us of wall time (timer slack), and the naps stay
// short, as a longer one oversleeps the event and the ranks waiting on this one wait longer.
template <typename Done>
void wait_sparing_core(Done&& done, std::chrono::microseconds spin = std::chrono::microseconds(10),
                       std::chrono::microseconds nap = std::chrono::microseconds(20)) {
  using Clock = std::chrono::steady_clock;
  const auto spin_until = Clock::now() + spin;
  GrowingNap naps(nap);
  bool yield_gave_core = true;
  while (!done()) {
    const auto now = Clock::now();
    if (now < spin_until) continue;
    if (yield_gave_core) {
      std::this_thread::yield();
      yield_gave_core = Clock::now() - now >= nap;
    } else {
      std::this_thread::sleep_for(naps.take());
      yield_gave_core = true;  // try a yield again
    }
  }
}

}  // namespace scomm
