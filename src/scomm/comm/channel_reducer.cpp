#include "scomm/comm/channel_reducer.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "scomm/base/error.hpp"

namespace scomm::comm {

ChannelReducer::ChannelReducer(p2p::MatchingEngine& engine, p2p::ChannelPtr channel, int tag,
                               bool blocking, std::uint64_t stamp)
    : engine_(engine),
      channel_(std::move(channel)),
      tag_(tag),
      stamp_(stamp),
      rank_(channel_->rank()),
      size_(channel_->size()),
      power_(static_cast<int>(std::bit_floor(static_cast<unsigned>(size_)))),
      exchange_(blocking) {}

void ChannelReducer::start_max(std::span<std::int64_t> values) {
  // Offsetting by 2^63 maps signed order onto unsigned order, so MAX works on the words.
  for (std::int64_t& v : values)
    v = static_cast<std::int64_t>(static_cast<std::uint64_t>(v) ^ (std::uint64_t{1} << 63));
  signed_ = true;
  start({reinterpret_cast<std::uint64_t*>(values.data()), values.size()},
        [](std::uint64_t& a, std::uint64_t b) { a = std::max(a, b); });
}

void ChannelReducer::start_and(std::span<std::uint64_t> bits) {
  signed_ = false;
  start(bits, [](std::uint64_t& a, std::uint64_t b) { a &= b; });
}

void ChannelReducer::start(std::span<std::uint64_t> words, Combine combine) {
  result_ = words;
  words_.assign(1, stamp_);
  words_.insert(words_.end(), words.begin(), words.end());
  incoming_.assign(words_.size(), 0);
  combine_ = std::move(combine);
  mask_ = 1;
  if (rank_ >= power_ || rank_ < size_ - power_)
    role_ = Role::kFoldIn;
  else
    role_ = power_ > 1 ? Role::kDouble : Role::kDone;
  begin_round();
}

void ChannelReducer::begin_round() {
  const int words = static_cast<int>(words_.size());
  switch (role_) {
    case Role::kFoldIn:  // extra ranks hand their words to a partner below power_
      if (rank_ >= power_)
        exchange_.start(engine_, channel_, tag_, rank_ - power_, words_.data(), words, -1, nullptr,
                        0);
      else
        exchange_.start(engine_, channel_, tag_, -1, nullptr, 0, rank_ + power_, incoming_.data(),
                        words);
      break;
    case Role::kDouble: {
      const int partner = rank_ ^ mask_;
      exchange_.start(engine_, channel_, tag_, partner, words_.data(), words, partner,
                      incoming_.data(), words);
      break;
    }
    case Role::kFoldOut:  // the result goes back to the extra ranks
      if (rank_ >= power_)
        exchange_.start(engine_, channel_, tag_, -1, nullptr, 0, rank_ - power_, words_.data(),
                        words);
      else
        exchange_.start(engine_, channel_, tag_, rank_ + power_, words_.data(), words, -1, nullptr,
                        0);
      break;
    case Role::kDone:
      break;
  }
}

bool ChannelReducer::test() {
  while (role_ != Role::kDone) {
    if (!exchange_.done(engine_)) return false;
    finish_round();
    begin_round();
  }
  std::copy(words_.begin() + 1, words_.end(), result_.begin());
  if (signed_) {
    for (std::uint64_t& w : result_) w ^= std::uint64_t{1} << 63;
    signed_ = false;
  }
  return true;
}

void ChannelReducer::finish_round() {
  const bool extra = rank_ >= power_, has_extra = rank_ < size_ - power_;
  switch (role_) {
    case Role::kFoldIn:
      if (!extra) {
        combine_incoming();
        role_ = power_ > 1 ? Role::kDouble : Role::kFoldOut;
      } else {
        role_ = Role::kFoldOut;
      }
      break;
    case Role::kDouble:
      combine_incoming();
      mask_ <<= 1;
      if (mask_ >= power_) role_ = has_extra ? Role::kFoldOut : Role::kDone;
      break;
    case Role::kFoldOut:
      if (extra) check_stamp(words_.front());
      role_ = Role::kDone;
      break;
    case Role::kDone:
      break;
  }
}

void ChannelReducer::check_stamp(std::uint64_t stamp) const {
  if (stamp != stamp_)
    throw Error(ErrorClass::kContext,
                "two concurrent collective creations share an internal tag (create_group tags "
                "that are equal modulo 64 on overlapping groups?); stamps " +
                    std::to_string(stamp) + " and " + std::to_string(stamp_));
}

void ChannelReducer::combine_incoming() {
  check_stamp(incoming_.front());
  for (std::size_t i = 1; i < words_.size(); ++i) combine_(words_[i], incoming_[i]);
}

}  // namespace scomm::comm
