#include "scomm/group/builder.hpp"

#include <vector>

#include "scomm/group/affine_view.hpp"
#include "scomm/group/choose_map.hpp"
#include "scomm/group/detect.hpp"
#include "scomm/group/regular_map.hpp"

namespace scomm::group {

MapPtr build_map(std::span<const Rank> world_ranks, const MapPolicy& policy) {
  if (auto box = detect_box(world_ranks)) return make_regular_map(*box);
  return build_irregular_map(world_ranks, policy);
}

MapPtr build_map(Rank n, const std::function<Rank(Rank)>& generate, const MapPolicy& policy) {
  if (auto box = detect_box(n, generate)) return make_regular_map(*box);
  std::vector<Rank> values(static_cast<std::size_t>(n));
  for (Rank r = 0; r < n; ++r) values[static_cast<std::size_t>(r)] = generate(r);
  return build_irregular_map(values, policy);
}

// Regular with regular composes analytically (Table II); an affine child of any other parent
// becomes a view sharing the parent's table; everything else is detected, then built.
MapPtr compose(const MapPtr& parent, const MapPtr& child, const MapPolicy& policy) {
  const auto child_box = child->as_box();
  const auto parent_box = parent->as_box();
  if (child_box && parent_box)
    if (auto box = parent_box->compose(*child_box)) return make_regular_map(*box);
  auto composite = [&](Rank r) { return parent->select(child->select(r)); };
  const Rank n = child->size();
  if (child_box && child_box->ndims() <= 1) {
    if (parent_box)
      if (auto box = detect_box(n, composite)) return make_regular_map(*box);
    const std::int64_t stride = child_box->ndims() == 1 ? child_box->dim(0).stride : 1;
    return AffineView::make(parent, static_cast<Rank>(child_box->base()), stride, n);
  }
  return build_map(n, composite, policy);
}

}  // namespace scomm::group
