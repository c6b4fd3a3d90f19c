// Waiting for a rare event that may take long: spin while it is likely to come soon, then sleep
// between polls, so that a rank sharing its core with the ranks it waits for gives the core to
// them instead of burning it.
#pragma once

#include <chrono>
#include <thread>

namespace scomm {

// Polls `done()` until it returns true: back to back for `spin`, then with `nap` between polls
// (short: a longer nap oversleeps the event, and the ranks waiting on this one wait longer).
template <typename Done>
void wait_sparing_core(Done&& done, std::chrono::microseconds spin = std::chrono::microseconds(10),
                       std::chrono::microseconds nap = std::chrono::microseconds(20)) {
  const auto spin_until = std::chrono::steady_clock::now() + spin;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= spin_until) std::this_thread::sleep_for(nap);
  }
}

}  // namespace scomm
