#include "scomm/comm/split_blocked.hpp"

#include <algorithm>

#include <mpi.h>

namespace scomm::comm {
namespace {

std::uint64_t word(int value) {
  return static_cast<std::uint32_t>(value);
}
int value(std::uint64_t word) {
  return static_cast<int>(static_cast<std::uint32_t>(word));
}

}  // namespace

BlockedSplit::BlockedSplit(p2p::MatchingEngine& engine, p2p::ChannelPtr channel, int tag,
                           int reduce_tag, int color, int key, bool blocking)
    : engine_(engine),
      channel_(std::move(channel)),
      tag_(tag),
      rank_(channel_->rank()),
      size_(channel_->size()),
      mine_{word(color), word(key)},
      reducer_(engine, channel_, reduce_tag, blocking),
      toward_left_(blocking),
      toward_right_(blocking) {
  exchange_neighbours();
}

void BlockedSplit::exchange_neighbours() {
  const int left = rank_ > 0 ? rank_ - 1 : -1, right = rank_ + 1 < size_ ? rank_ + 1 : -1;
  toward_left_.start(engine_, channel_, tag_, left, mine_.data(), 2, left, left_.data(), 2);
  toward_right_.start(engine_, channel_, tag_, right, mine_.data(), 2, right, right_.data(), 2);
}

// Blocked here: my color is defined and continues the left neighbour's run in key order, or
// starts a run of a larger color.
void BlockedSplit::agree() {
  const int color = value(mine_[0]), key = value(mine_[1]);
  bool ok = color != MPI_UNDEFINED;
  if (rank_ > 0) {
    const int left_color = value(left_[0]), left_key = value(left_[1]);
    ok = ok && (left_color < color || (left_color == color && left_key <= key));
  }
  agreement_[0] = ok ? 1 : 0;
  reducer_.start_and(agreement_);
  const bool starts = rank_ == 0 || value(left_[0]) != color;
  const bool ends = rank_ + 1 == size_ || value(right_[0]) != color;
  starts_[0] = starts ? word(rank_) : 0;
  ends_[0] = ends ? word(rank_) : word(size_ - 1);
}

void BlockedSplit::begin_scan_round() {
  const int to_right = rank_ + distance_ < size_ ? rank_ + distance_ : -1;
  const int to_left = rank_ - distance_ >= 0 ? rank_ - distance_ : -1;
  // Run starts travel right (prefix max), run ends travel left (suffix min).
  toward_right_.start(engine_, channel_, tag_, to_right, &starts_[0], 1, to_left, &starts_[1], 1);
  toward_left_.start(engine_, channel_, tag_, to_left, &ends_[0], 1, to_right, &ends_[1], 1);
}

void BlockedSplit::finish_scan_round() {
  if (rank_ - distance_ >= 0) starts_[0] = std::max(starts_[0], starts_[1]);
  if (rank_ + distance_ < size_) ends_[0] = std::min(ends_[0], ends_[1]);
  distance_ *= 2;
}

bool BlockedSplit::test() {
  for (;;) {
    switch (phase_) {
      case Phase::kNeighbours:
        if (!toward_left_.done(engine_) || !toward_right_.done(engine_)) return false;
        agree();
        phase_ = Phase::kAgree;
        break;
      case Phase::kAgree:
        if (!reducer_.test()) return false;
        if (!blocked() || distance_ >= size_) {
          phase_ = Phase::kDone;
          break;
        }
        begin_scan_round();
        phase_ = Phase::kScan;
        break;
      case Phase::kScan:
        if (!toward_left_.done(engine_) || !toward_right_.done(engine_)) return false;
        finish_scan_round();
        if (distance_ < size_)
          begin_scan_round();
        else
          phase_ = Phase::kDone;
        break;
      case Phase::kDone:
        return true;
    }
  }
}

}  // namespace scomm::comm
