#include "scomm/coll/scan_recursive_doubling.hpp"

namespace scomm::coll {
namespace {

// The last step in which `rank` has a partner (0 for none): its group's partial is not needed
// after that step.
int last_step(int rank, int p) {
  int last = 0;
  for (int mask = 1; mask < p; mask *= 2)
    if ((rank ^ mask) < p) last = mask;
  return last;
}

// The group's partial moves between two temporaries (each step reduces into the one that did
// not hold it), so no step copies it; it starts in the input, or in a temporary when the input
// is the output that the steps overwrite.
class PrefixBuilder {
 public:
  PrefixBuilder(const Shape& shape, std::int64_t count, bool in_place, bool inclusive)
      : p_(shape.size),
        rank_(shape.rank),
        last_(last_step(shape.rank, shape.size)),
        count_(count),
        has_result_(inclusive) {
    if (inclusive && !in_place) schedule_.copy(input(), result());
    if (last_ == 0) return;
    temps_[0] = schedule_.add_temp(TypeId::kRecv, count);
    temps_[1] = schedule_.add_temp(TypeId::kRecv, count);
    if (in_place) {
      schedule_.copy(input(), temp(temps_[0]));
      group_ = temps_[0];
    }
  }

  Schedule build() && {
    for (int mask = 1; mask <= last_; mask *= 2)
      if ((rank_ ^ mask) < p_) step(mask, rank_ ^ mask);
    return std::move(schedule_);
  }

 private:
  void step(int mask, int partner) {
    const bool lower = partner < rank_, group_needed = mask < last_;
    // The partner needs our group for its result (we are lower) or for its later steps.
    const bool partner_needs = !lower || mask < last_step(partner, p_);
    schedule_.next_round();
    if (partner_needs) schedule_.send(partner, group());
    if (!lower && !group_needed) return;
    // The first lower partial of an exclusive scan is its result: straight into the output.
    if (lower && !has_result_ && !group_needed) {
      schedule_.receive(partner, result());
      has_result_ = true;
      return;
    }
    const Slot incoming = group_ == temps_[0] ? temps_[1] : temps_[0];
    schedule_.receive(partner, temp(incoming));
    if (lower) {
      if (has_result_)
        schedule_.reduce_left(temp(incoming), result());
      else
        schedule_.copy(temp(incoming), result());
      has_result_ = true;
    }
    if (!group_needed) return;
    // The new group partial: lower partial op ours, or ours op higher partial.
    if (lower)
      schedule_.reduce_right(group(), temp(incoming));
    else
      schedule_.reduce_left(group(), temp(incoming));
    group_ = incoming;
  }

  Block input() const { return {kInput, 0, count_}; }
  Block result() const { return {kOutput, 0, count_}; }
  Block temp(Slot slot) const { return {slot, 0, count_}; }
  Block group() const { return {group_, 0, count_}; }

  Schedule schedule_;
  int p_, rank_, last_;
  std::int64_t count_;
  bool has_result_;
  Slot temps_[2] = {kInput, kInput};
  Slot group_ = kInput;
};

}  // namespace

Schedule scan_recursive_doubling(const Shape& shape, std::int64_t count, bool in_place) {
  return PrefixBuilder(shape, count, in_place, true).build();
}

Schedule exscan_recursive_doubling(const Shape& shape, std::int64_t count, bool in_place) {
  return PrefixBuilder(shape, count, in_place, false).build();
}

}  // namespace scomm::coll
