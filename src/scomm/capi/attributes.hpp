// Attribute caching on communicators (MPI's keyvals): SCOMM_Comm_create_keyval, _set_attr,
// _get_attr, _delete_attr, _free_keyval. A keyval lives while the user holds it or an attribute
// uses it. The attributes of a communicator live beside the handle table (Context::attributes),
// so communicators without any cost nothing; a dup copies them through the keyvals' copy
// callbacks, a free deletes them through their delete callbacks.
#pragma once

#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scomm.h"

namespace scomm::capi {

inline constexpr int kFirstUserKeyval = 16;  // below: predefined (SCOMM_TOPOLOGY_DEPTHS, ...)

struct Keyval {
  SCOMM_Comm_copy_attr_function* copy;      // null: SCOMM_COMM_NULL_COPY_FN
  SCOMM_Comm_delete_attr_function* remove;  // null: SCOMM_COMM_NULL_DELETE_FN
  void* extra_state;
  bool freed_by_user = false;
  int attributes = 0;  // set on some communicator
};

struct Attribute {
  int keyval;
  void* value;
};
using AttributeList = std::vector<Attribute>;  // in the order they were set

// The copies of comm's attributes for a duplicate, made by their copy callbacks (those whose
// callback says not to copy are left out); Error(kArg) when a callback fails, the copies made
// until then deleted first.
AttributeList copy_attributes(SCOMM_Comm comm);
// SCOMM_Comm_get_attr of MPI's predefined keyvals (SCOMM_TAG_UB, SCOMM_HOST, ...): false when the
// base MPI has no such attribute; nullopt for any other keyval.
std::optional<bool> mpi_attribute(int keyval, void** value);
// SCOMM_Comm_get_attr of a user's keyval: false when comm has no such attribute; Error(kArg) for
// a keyval that is not live.
bool user_attribute(SCOMM_Comm comm, int keyval, void** value);
// Gives communicator `comm` the attributes `list` (copies for it).
void attach_attributes(SCOMM_Comm comm, AttributeList list);
// Deletes every attribute of `comm` through its delete callback, the last set first; when a
// callback fails, Error(kArg), and that attribute and those set before it stay.
void delete_attributes(SCOMM_Comm comm);
// The same for attributes that no communicator has (a failed duplicate's copies), every one
// deleted whatever its callback answers.
void delete_detached(SCOMM_Comm comm, AttributeList& list) noexcept;

// The copies a nonblocking duplicate made when it started, for the communicator it makes;
// deleted with it if it never does.
struct PendingAttributes {
  AttributeList list;
  PendingAttributes() = default;
  explicit PendingAttributes(AttributeList copies) : list(std::move(copies)) {}
  PendingAttributes(const PendingAttributes&) = delete;
  PendingAttributes& operator=(const PendingAttributes&) = delete;
  ~PendingAttributes() { delete_detached(SCOMM_COMM_NULL, list); }
};

}  // namespace scomm::capi
