#include "scomm/comm/cartesian.hpp"

#include <string>

#include "scomm/base/error.hpp"
#include "scomm/comm/create.hpp"
#include "scomm/group/builder.hpp"
#include "scomm/group/group.hpp"
#include "scomm/group/regular_map.hpp"

namespace scomm::comm {
namespace {

// The sub-grid's ranks in the parent's numbering: a box, or (more than kMaxBoxDims dimensions
// that do not merge) a map built from the box's points.
group::MapPtr sub_grid_in_parent(const group::CartGrid::Sub& sub, const group::MapPolicy& policy) {
  const int ndims = static_cast<int>(sub.box.size());
  if (ndims == 0) return group::make_regular_map(group::Box::progression(sub.base, 1, 1));
  if (const auto box = group::Box::make(sub.base, sub.box.data(), ndims))
    return group::make_regular_map(*box);
  group::Rank points = 1;
  for (const group::BoxDim& d : sub.box) points *= d.count;
  return group::build_map(
      points,
      [&](group::Rank index) {
        group::Rank rank = sub.base;
        for (const group::BoxDim& d : sub.box) {
          rank += (index % d.count) * d.stride;
          index /= d.count;
        }
        return rank;
      },
      policy);
}

}  // namespace

std::optional<Comm> cart_create(Runtime& runtime, Comm& parent, const group::CartGrid& grid,
                                const group::MapPolicy& policy) {
  if (grid.size() > parent.size())
    throw Error(ErrorClass::kArg, "a grid of " + std::to_string(grid.size()) +
                                      " points on a communicator of " +
                                      std::to_string(parent.size()) + " processes");
  // A fresh block (one allreduce; MPI_Cart_create is collective too): its derivation bits all
  // serve the sub-grids, which a communicator derived locally would share with its siblings.
  const group::RangeTriplet first_ranks{0, grid.size() - 1, 1};
  return finish(*start_create(runtime, parent,
                              group::range_incl(parent.group(), std::span(&first_ranks, 1), policy),
                              true));
}

Comm cart_sub(Runtime& runtime, Comm& cart, const group::CartGrid::Sub& sub,
              const group::MapPolicy& policy) {
  const auto derived = context::derive_child(cart.derivation());
  if (!derived)  // out of bits: a collective split, colored by the sub-grid's first point
    return std::move(*finish(*start_split(runtime, cart, sub.base, sub.index, policy, true)));
  group::MapPtr in_parent = sub_grid_in_parent(sub, policy);
  return runtime.open(group::compose(cart.channel().map_ptr(), in_parent, policy), sub.index,
                      *derived);
}

}  // namespace scomm::comm
