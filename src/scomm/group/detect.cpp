#include "scomm/group/detect.hpp"

#include <vector>

namespace scomm::group {
namespace {

// Grows a box hypothesis dimension by dimension: the fastest dimension is the first run of equal
// differences; each later dimension repeats the whole block seen so far at a fixed stride. A value
// that breaks the hypothesis at a block boundary closes the open dimension and opens the next.
class BoxDetector {
 public:
  explicit BoxDetector(Rank first) : first_(first) {}

  bool accept(Rank i, Rank v) {
    if (!open_) return open_dimension(v);
    if (v == expected(i)) return true;
    if (i % block_ != 0) return false;
    dims_.push_back({i / block_, open_stride_});
    block_ = i;
    if (dims_.size() >= static_cast<std::size_t>(kMaxBoxDims)) return false;
    return open_dimension(v);
  }

  std::optional<Box> finish(Rank n) {
    if (open_) {
      if (n % block_ != 0) return std::nullopt;
      dims_.push_back({n / block_, open_stride_});
    }
    return Box::make(first_, dims_.data(), static_cast<int>(dims_.size()));
  }

 private:
  bool open_dimension(Rank v) {
    open_stride_ = static_cast<std::int32_t>(v - first_);  // both in [0, 2^31)
    open_ = true;
    return open_stride_ != 0;
  }

  std::int64_t expected(Rank i) const {
    std::int64_t v = first_;
    for (const BoxDim& d : dims_) {
      v += static_cast<std::int64_t>(i % d.count) * d.stride;
      i /= d.count;
    }
    return v + static_cast<std::int64_t>(i) * open_stride_;
  }

  std::int64_t first_;
  std::vector<BoxDim> dims_;  // closed dimensions, fastest first
  Rank block_ = 1;            // product of the closed dimensions' counts
  bool open_ = false;
  std::int32_t open_stride_ = 0;
};

}  // namespace

std::optional<Box> detect_box(Rank n, const std::function<Rank(Rank)>& value) {
  if (n <= 0) return Box();
  BoxDetector detector(value(0));
  for (Rank i = 1; i < n; ++i)
    if (!detector.accept(i, value(i))) return std::nullopt;
  return detector.finish(n);
}

std::optional<Box> detect_box(std::span<const Rank> values) {
  return detect_box(static_cast<Rank>(values.size()),
                    [values](Rank i) { return values[static_cast<std::size_t>(i)]; });
}

}  // namespace scomm::group
