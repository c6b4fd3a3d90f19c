#include "scomm/comm/cartesian.hpp"

#include <memory>
#include <string>

#include "scomm/base/error.hpp"
#include "scomm/comm/create.hpp"
#include "scomm/group/builder.hpp"
#include "scomm/group/group.hpp"
#include "scomm/group/regular_map.hpp"

namespace scomm::comm {

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

std::optional<Comm> cart_create(Runtime& runtime, Comm& parent, group::CartGrid grid,
                                const group::MapPolicy& policy) {
  if (grid.size() > parent.size())
    throw Error(ErrorClass::kArg, "a grid of " + std::to_string(grid.size()) +
                                      " points on a communicator of " +
                                      std::to_string(parent.size()) + " processes");
  // A fresh block (one allreduce; MPI_Cart_create is collective too): its derivation bits all
  // serve the sub-grids, which a communicator derived locally would share with its siblings.
  const group::RangeTriplet first_ranks{0, grid.size() - 1, 1};
  auto made = finish(
      runtime,
      *start_create(runtime, parent,
                    group::range_incl(parent.group(), std::span(&first_ranks, 1), policy), true));
  if (made) made->set_topology(std::make_shared<const group::VirtualTopology>(std::move(grid)));
  return made;
}

const group::CartGrid& grid_of(const Comm& comm) {
  if (!comm.grid())
    throw Error(ErrorClass::kTopology, "the communicator has no Cartesian topology");
  return *comm.grid();
}

Comm cart_sub(Runtime& runtime, Comm& cart, const std::vector<bool>& remain,
              const group::MapPolicy& policy) {
  const group::CartGrid::Sub sub = grid_of(cart).sub(cart.rank(), remain);
  auto sub_grid = std::make_shared<const group::VirtualTopology>(
      std::in_place_type<group::CartGrid>, sub.dims, sub.periods);
  Comm made = runtime.open(
      group::compose(cart.channel().map_ptr(), sub_grid_in_parent(sub, policy), policy), sub.index,
      next_local_context(runtime, cart, true));
  made.set_topology(std::move(sub_grid));
  return made;
}

}  // namespace scomm::comm
