#include "scomm/p2p/held_internal_tag.hpp"

#include <string>

#include "scomm/base/error.hpp"
#include "scomm/context/tag_layout.hpp"

namespace scomm::p2p {

void throw_out_of_internal_tags() {
  throw Error(ErrorClass::kIntern,
              "more collectives in flight on one communicator than internal tags (" +
                  std::to_string(context::TagLayout::kSequencedTags) +
                  "): complete some before starting more");
}

}  // namespace scomm::p2p
