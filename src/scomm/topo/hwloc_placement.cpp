#include "scomm/topo/hwloc_placement.hpp"

#include <hwloc.h>

#include <algorithm>
#include <array>
#include <new>
#include <string>

#include "scomm/base/error.hpp"

namespace scomm::topo {
namespace {

constexpr std::array kNames{"package", "numa", "l3"};
constexpr std::array kTypes{HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE, HWLOC_OBJ_L3CACHE};

struct Bitmap {
  Bitmap() : set(hwloc_bitmap_alloc()) {
    if (set == nullptr) throw std::bad_alloc();
  }
  ~Bitmap() { hwloc_bitmap_free(set); }
  Bitmap(const Bitmap&) = delete;
  Bitmap& operator=(const Bitmap&) = delete;
  hwloc_bitmap_t set;
};

[[noreturn]] void failed(const char* what) {
  throw Error(ErrorClass::kIntern, std::string("hwloc: ") + what + " failed");
}

}  // namespace

struct NodeTopology::Handle {
  Handle() {
    if (hwloc_topology_init(&topology) != 0) failed("hwloc_topology_init");
  }
  ~Handle() { hwloc_topology_destroy(topology); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  void load() {
    if (hwloc_topology_load(topology) != 0) failed("hwloc_topology_load");
  }
  hwloc_topology_t topology = nullptr;
};

std::string_view name_of(NodeLevel level) noexcept {
  return kNames[static_cast<std::size_t>(level)];
}

std::vector<NodeLevel> parse_node_levels(std::string_view text, std::string_view variable) {
  std::vector<NodeLevel> levels;
  if (text == "none") return levels;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    std::size_t kind = 0;
    while (kind < kNames.size() && item != kNames[kind]) ++kind;
    if (kind == kNames.size())
      throw Error(ErrorClass::kArg, std::string(variable) + ": '" + std::string(item) +
                                        "' is not package, numa or l3 (or none alone)");
    const auto level = static_cast<NodeLevel>(kind);
    if (std::find(levels.begin(), levels.end(), level) != levels.end())
      throw Error(ErrorClass::kArg, std::string(variable) + ": '" + std::string(item) + "' twice");
    levels.push_back(level);
    start = comma + 1;
  }
  return levels;
}

NodeTopology NodeTopology::of_this_machine() {
  auto handle = std::make_shared<Handle>();
  handle->load();
  return NodeTopology(std::move(handle));
}

NodeTopology NodeTopology::synthetic(std::string_view description) {
  auto handle = std::make_shared<Handle>();
  if (hwloc_topology_set_synthetic(handle->topology, std::string(description).c_str()) != 0)
    throw Error(ErrorClass::kArg,
                "hwloc: bad synthetic topology '" + std::string(description) + "'");
  handle->load();
  return NodeTopology(std::move(handle));
}

std::vector<unsigned> NodeTopology::binding_of_this_process() const {
  Bitmap binding;
  std::vector<unsigned> cpus;
  if (hwloc_get_cpubind(handle_->topology, binding.set, HWLOC_CPUBIND_THREAD) != 0) return cpus;
  for (int cpu = hwloc_bitmap_first(binding.set); cpu >= 0;
       cpu = hwloc_bitmap_next(binding.set, cpu))
    cpus.push_back(static_cast<unsigned>(cpu));
  return cpus;
}

int NodeTopology::processing_units() const {
  return std::max(1, hwloc_get_nbobjs_by_type(handle_->topology, HWLOC_OBJ_PU));
}

std::vector<std::int64_t> NodeTopology::place(std::span<const unsigned> cpus,
                                              std::span<const NodeLevel> levels) const {
  Bitmap set;
  for (unsigned cpu : cpus) hwloc_bitmap_set(set.set, cpu);
  std::vector<std::int64_t> colors(levels.size(), kUnplaced);
  if (cpus.empty()) return colors;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const hwloc_obj_type_t type = kTypes[static_cast<std::size_t>(levels[l])];
    for (hwloc_obj_t obj = hwloc_get_next_obj_by_type(handle_->topology, type, nullptr);
         obj != nullptr; obj = hwloc_get_next_obj_by_type(handle_->topology, type, obj))
      if (obj->cpuset != nullptr && hwloc_bitmap_isincluded(set.set, obj->cpuset))
        colors[l] = obj->logical_index;
  }
  return colors;
}

}  // namespace scomm::topo
