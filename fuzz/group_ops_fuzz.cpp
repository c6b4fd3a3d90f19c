// libFuzzer target: random sequences of group operations, each result checked member by member
// against a dense model; bad input must come back as scomm::Error, never as a crash.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "scomm/base/error.hpp"
#include "scomm/group/group.hpp"

namespace {

using scomm::group::Group;
using scomm::group::Rank;
using Members = std::vector<Rank>;

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool done() const { return pos_ >= size_; }
  int next(int bound) { return bound <= 0 || done() ? 0 : data_[pos_++] % bound; }
  int signed_next(int bound) { return next(2 * bound + 3) - bound - 1; }  // may be out of range

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

Members members_of(const Group& g) {
  Members m(static_cast<std::size_t>(g.size()));
  g.map().decode(0, m);
  return m;
}

void check(const Group& g, const Members& model) {
  if (members_of(g) != model) std::abort();
  for (std::size_t r = 0; r < model.size(); ++r)
    if (g.map().rank_of(model[r]) != static_cast<Rank>(r)) std::abort();
}

bool contains(const Members& m, Rank w) {
  return std::find(m.begin(), m.end(), w) != m.end();
}

struct Slot {
  Group group;
  Members model;
};

void apply_incl(Input& in, std::vector<Slot>& slots, Slot& a) {
  std::vector<int> ranks(static_cast<std::size_t>(in.next(12)));
  for (int& r : ranks) r = in.signed_next(a.group.size());
  const bool valid = std::all_of(ranks.begin(), ranks.end(), [&](int r) {
    return r >= 0 && r < a.group.size() && std::count(ranks.begin(), ranks.end(), r) == 1;
  });
  try {
    Group g = scomm::group::incl(a.group, ranks);
    if (!valid) std::abort();
    Members m;
    for (int r : ranks) m.push_back(a.model[static_cast<std::size_t>(r)]);
    check(g, m);
    slots.push_back({g, m});
  } catch (const scomm::Error&) {
    if (valid) std::abort();
  }
}

void apply_range(Input& in, std::vector<Slot>& slots, Slot& a) {
  const scomm::group::RangeTriplet t{in.signed_next(a.group.size()), in.signed_next(a.group.size()),
                                     in.signed_next(3)};
  try {
    Group g = scomm::group::range_incl(a.group, std::span(&t, 1));
    Members m;
    for (int r = t[0]; t[2] > 0 ? r <= t[1] : r >= t[1]; r += t[2])
      m.push_back(a.model[static_cast<std::size_t>(r)]);
    check(g, m);
    slots.push_back({g, m});
  } catch (const scomm::Error&) {
  }
}

void apply_set_op(Input& in, std::vector<Slot>& slots, const Slot& a, const Slot& b) {
  Members m;
  Group g;
  switch (in.next(3)) {
    case 0:
      g = scomm::group::set_union(a.group, b.group);
      m = a.model;
      for (Rank w : b.model)
        if (!contains(a.model, w)) m.push_back(w);
      break;
    default: {
      const bool common = in.next(2) == 0;
      g = common ? scomm::group::intersection(a.group, b.group)
                 : scomm::group::difference(a.group, b.group);
      for (Rank w : a.model)
        if (contains(b.model, w) == common) m.push_back(w);
    }
  }
  check(g, m);
  slots.push_back({g, m});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const Rank n = in.next(64);
  Members world(static_cast<std::size_t>(n));
  for (Rank r = 0; r < n; ++r) world[static_cast<std::size_t>(r)] = r;
  std::vector<Slot> slots{{Group::world(n), world}};
  while (!in.done() && slots.size() < 16) {
    Slot a = slots[static_cast<std::size_t>(in.next(static_cast<int>(slots.size())))];
    const Slot b = slots[static_cast<std::size_t>(in.next(static_cast<int>(slots.size())))];
    switch (in.next(3)) {
      case 0:
        apply_incl(in, slots, a);
        break;
      case 1:
        apply_range(in, slots, a);
        break;
      default:
        apply_set_op(in, slots, a, b);
    }
  }
  return 0;
}
