#include "scomm/group/affine_view.hpp"

namespace scomm::group {

AffineView::AffineView(MapPtr base, Rank offset, std::int64_t stride, Rank n)
    : base_(std::move(base)), offset_(offset), stride_(stride), n_(n) {
  name_ = "view:" + std::string(base_->name());
}

MapPtr AffineView::make(const MapPtr& base, Rank offset, std::int64_t stride, Rank n) {
  if (const auto* view = dynamic_cast<const AffineView*>(base.get())) {
    const std::int64_t folded_offset = view->offset_ + offset * view->stride_;
    return std::make_shared<AffineView>(view->base_, static_cast<Rank>(folded_offset),
                                        stride * view->stride_, n);
  }
  return std::make_shared<AffineView>(base, offset, stride, n);
}

Rank AffineView::rank_of(Rank world) const noexcept {
  const Rank x = base_->rank_of(world);
  if (x == kUndefined) return kUndefined;
  const std::int64_t d = static_cast<std::int64_t>(x) - offset_;
  if (d % stride_ != 0) return kUndefined;
  const std::int64_t r = d / stride_;
  return r >= 0 && r < n_ ? static_cast<Rank>(r) : kUndefined;
}

}  // namespace scomm::group
