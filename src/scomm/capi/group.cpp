// SCOMM_Group_*: handle checks and argument checks around the group layer's algebra.
#include <span>
#include <string>
#include <vector>

#include "scomm.h"
#include "scomm/capi/context.hpp"

namespace scomm::capi {

const group::Group* find_group(SCOMM_Group handle) {
  if (handle == SCOMM_GROUP_EMPTY) {
    std::optional<group::Group>& empty = context().empty_group;
    if (!empty) empty.emplace();
    return &*empty;
  }
  return context().groups.find(handle);
}

const group::Group& group_of(SCOMM_Group handle) {
  const group::Group* g = find_group(handle);
  if (g == nullptr)
    throw Error(ErrorClass::kGroup, handle == SCOMM_GROUP_NULL
                                        ? "SCOMM_GROUP_NULL is not a group"
                                        : "group handle " + std::to_string(handle) +
                                              " is not live (freed or never created)");
  return *g;
}

SCOMM_Group new_group_handle(group::Group g) {
  return context().groups.insert(std::move(g));
}

}  // namespace scomm::capi

namespace {

using scomm::Error;
using scomm::ErrorClass;
using scomm::capi::group_of;
using scomm::capi::guarded;
using scomm::capi::new_group_handle;
using scomm::capi::require;
namespace group = scomm::group;

// The group layer's kUndefined as the base MPI's MPI_UNDEFINED (they differ in SimGrid's SMPI).
int to_mpi_undefined(int rank) {
  return rank == group::kUndefined ? MPI_UNDEFINED : rank;
}

std::span<const int> rank_list(int n, const int ranks[]) {
  if (n < 0) throw Error(ErrorClass::kArg, "negative count " + std::to_string(n));
  if (n > 0) require(ranks, "ranks");
  return {ranks, static_cast<std::size_t>(n)};
}

std::vector<group::RangeTriplet> range_list(int n, int ranges[][3]) {
  if (n < 0) throw Error(ErrorClass::kArg, "negative count " + std::to_string(n));
  if (n > 0) require(ranges, "ranges");
  std::vector<group::RangeTriplet> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    out[static_cast<std::size_t>(i)] = {ranges[i][0], ranges[i][1], ranges[i][2]};
  return out;
}

template <typename Operation>
int binary_group_op(const char* name, SCOMM_Group a, SCOMM_Group b, SCOMM_Group* newgroup,
                    Operation operation) {
  return guarded(name, [&] {
    require(newgroup, "newgroup");
    *newgroup =
        new_group_handle(operation(group_of(a), group_of(b), scomm::capi::context().map_policy));
  });
}

}  // namespace

extern "C" {

int SCOMM_Group_size(SCOMM_Group group, int* size) {
  return guarded("SCOMM_Group_size", [&] {
    require(size, "size");
    *size = group_of(group).size();
  });
}

int SCOMM_Group_rank(SCOMM_Group group, int* rank) {
  return guarded("SCOMM_Group_rank", [&] {
    require(rank, "rank");
    *rank = to_mpi_undefined(group_of(group).rank());
  });
}

int SCOMM_Group_translate_ranks(SCOMM_Group group1, int n, const int ranks1[], SCOMM_Group group2,
                                int ranks2[]) {
  return guarded("SCOMM_Group_translate_ranks", [&] {
    const auto in = rank_list(n, ranks1);
    if (n > 0) require(ranks2, "ranks2");
    const std::span<int> out(ranks2, static_cast<std::size_t>(n));
    group::translate_ranks(group_of(group1), in, group_of(group2), out, MPI_PROC_NULL);
    for (int& r : out) r = to_mpi_undefined(r);
  });
}

int SCOMM_Group_compare(SCOMM_Group group1, SCOMM_Group group2, int* result) {
  return guarded("SCOMM_Group_compare", [&] {
    require(result, "result");
    switch (group::compare(group_of(group1), group_of(group2))) {
      case group::Comparison::kIdent:
        *result = SCOMM_IDENT;
        break;
      case group::Comparison::kSimilar:
        *result = SCOMM_SIMILAR;
        break;
      case group::Comparison::kUnequal:
        *result = SCOMM_UNEQUAL;
        break;
    }
  });
}

int SCOMM_Group_union(SCOMM_Group group1, SCOMM_Group group2, SCOMM_Group* newgroup) {
  return binary_group_op("SCOMM_Group_union", group1, group2, newgroup, group::set_union);
}

int SCOMM_Group_intersection(SCOMM_Group group1, SCOMM_Group group2, SCOMM_Group* newgroup) {
  return binary_group_op("SCOMM_Group_intersection", group1, group2, newgroup, group::intersection);
}

int SCOMM_Group_difference(SCOMM_Group group1, SCOMM_Group group2, SCOMM_Group* newgroup) {
  return binary_group_op("SCOMM_Group_difference", group1, group2, newgroup, group::difference);
}

int SCOMM_Group_incl(SCOMM_Group group, int n, const int ranks[], SCOMM_Group* newgroup) {
  return guarded("SCOMM_Group_incl", [&] {
    require(newgroup, "newgroup");
    *newgroup = new_group_handle(
        group::incl(group_of(group), rank_list(n, ranks), scomm::capi::context().map_policy));
  });
}

int SCOMM_Group_excl(SCOMM_Group group, int n, const int ranks[], SCOMM_Group* newgroup) {
  return guarded("SCOMM_Group_excl", [&] {
    require(newgroup, "newgroup");
    *newgroup = new_group_handle(
        group::excl(group_of(group), rank_list(n, ranks), scomm::capi::context().map_policy));
  });
}

int SCOMM_Group_range_incl(SCOMM_Group group, int n, int ranges[][3], SCOMM_Group* newgroup) {
  return guarded("SCOMM_Group_range_incl", [&] {
    require(newgroup, "newgroup");
    *newgroup = new_group_handle(group::range_incl(group_of(group), range_list(n, ranges),
                                                   scomm::capi::context().map_policy));
  });
}

int SCOMM_Group_range_excl(SCOMM_Group group, int n, int ranges[][3], SCOMM_Group* newgroup) {
  return guarded("SCOMM_Group_range_excl", [&] {
    require(newgroup, "newgroup");
    *newgroup = new_group_handle(group::range_excl(group_of(group), range_list(n, ranges),
                                                   scomm::capi::context().map_policy));
  });
}

// The standard does not forbid freeing MPI_GROUP_EMPTY, group constructors may return it, and
// MPICH and Open MPI both accept it; so does scomm (the predefined empty group stays valid).
int SCOMM_Group_free(SCOMM_Group* group) {
  return guarded("SCOMM_Group_free", [&] {
    require(group, "group");
    if (*group != SCOMM_GROUP_EMPTY && !scomm::capi::context().groups.erase(*group))
      group_of(*group);  // reports why the handle is not live
    *group = SCOMM_GROUP_NULL;
  });
}

int SCOMM_Group_world(int n, SCOMM_Group* group) {
  return guarded("SCOMM_Group_world", [&] {
    require(group, "group");
    *group = new_group_handle(group::Group::world(n));
  });
}

int SCOMM_Group_memory(SCOMM_Group group, size_t* bytes) {
  return guarded("SCOMM_Group_memory", [&] {
    require(bytes, "bytes");
    const group::RankMap& map = group_of(group).map();
    *bytes = map.bytes() + map.shared_bytes();
  });
}

int SCOMM_Set_map_strategy(int strategy) {
  return guarded("SCOMM_Set_map_strategy", [&] {
    if (strategy < SCOMM_MAP_SPACE || strategy > SCOMM_MAP_HYBRID)
      throw Error(ErrorClass::kArg, "unknown map strategy " + std::to_string(strategy));
    scomm::capi::context().map_policy.strategy = static_cast<group::MapStrategy>(strategy);
  });
}

int SCOMM_Group_representation(SCOMM_Group group, char* name, int* resultlen) {
  return guarded("SCOMM_Group_representation", [&] {
    require(name, "name");
    require(resultlen, "resultlen");
    scomm::capi::copy_c_string(group_of(group).representation(), SCOMM_MAX_OBJECT_NAME, name,
                               resultlen);
  });
}

}  // extern "C"
