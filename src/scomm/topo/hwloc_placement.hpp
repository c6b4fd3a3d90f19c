// Where a process sits inside its node, from its CPU binding (hwloc): for each node-internal level
// (package, NUMA domain, L3 cache) the one object of that kind holding every CPU it may run on.
// No MPI: discovery.cpp gathers the placements of the ranks sharing a node.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace scomm::topo {

enum class NodeLevel { kPackage, kNuma, kL3 };

std::string_view name_of(NodeLevel level) noexcept;
// "package,numa,l3" (any of them, outermost first) or "none". Error(kArg) naming `variable`.
std::vector<NodeLevel> parse_node_levels(std::string_view text, std::string_view variable);

// The color of a process spread over several objects of a level (or not bound at all on a node
// with several): at that level it is nowhere in particular.
inline constexpr std::int64_t kUnplaced = -1;

class NodeTopology {
 public:
  // This machine (or what HWLOC_XMLFILE / HWLOC_SYNTHETIC describe). Error(kIntern) on failure.
  static NodeTopology of_this_machine();
  // A synthetic machine, e.g. "package:2 numa:2 l3:1 core:2 pu:1" (hwloc's syntax).
  static NodeTopology synthetic(std::string_view description);

  // The physical indexes of the CPUs the calling thread is bound to (the thread that calls
  // SCOMM_Init, which runs the collectives; a launcher's binding covers every thread); empty when
  // hwloc cannot tell.
  std::vector<unsigned> binding_of_this_process() const;
  // The hardware threads this process's node lets it run on (its cgroup's cpuset, not its
  // binding); at least 1.
  int processing_units() const;
  // Per level: the logical index of the object of that kind that holds all of `cpus` (physical
  // indexes), or kUnplaced.
  std::vector<std::int64_t> place(std::span<const unsigned> cpus,
                                  std::span<const NodeLevel> levels) const;

 private:
  struct Handle;
  explicit NodeTopology(std::shared_ptr<Handle> handle) : handle_(std::move(handle)) {}
  std::shared_ptr<Handle> handle_;
};

// This machine's topology, loaded on first use only: SCOMM_Init's discovery and its core-sharing
// check may both need it, and a load takes some 2 ms (the 2-core VM), most of SCOMM_Init's time.
class MachineOnDemand {
 public:
  // Error(kIntern) when hwloc fails (and again on the next call).
  const NodeTopology& get() {
    if (!machine_) machine_.emplace(NodeTopology::of_this_machine());
    return *machine_;
  }

 private:
  std::optional<NodeTopology> machine_;
};

}  // namespace scomm::topo
