// Context ids: each live communicator owns one, unique among the live communicators of every one
// of its members, so a message's context names exactly one communicator at its receiver.
#pragma once

#include <cstdint>
#include <limits>

namespace scomm::context {

using ContextId = std::uint32_t;
inline constexpr ContextId kNoContext = std::numeric_limits<ContextId>::max();

}  // namespace scomm::context
