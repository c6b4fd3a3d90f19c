#include "scomm/group/regular_map.hpp"

#include "scomm/group/box_map.hpp"
#include "scomm/group/direct_map.hpp"
#include "scomm/group/offset_map.hpp"
#include "scomm/group/stride_block_map.hpp"
#include "scomm/group/stride_map.hpp"

namespace scomm::group {

MapPtr make_regular_map(const Box& box) {
  const std::string_view kind = box.kind();
  const auto base = static_cast<Rank>(box.base());
  if (kind == "empty") return std::make_shared<DirectMap>(0);
  if (kind == "direct") return std::make_shared<DirectMap>(box.size());
  if (kind == "offset") return std::make_shared<OffsetMap>(base, box.size());
  if (kind == "stride") return std::make_shared<StrideMap>(base, box.dim(0).stride, box.size());
  if (kind == "stride-block")
    return std::make_shared<StrideBlockMap>(base, box.dim(0).count, box.dim(1).stride, box.size());
  return std::make_shared<BoxMap>(box);
}

}  // namespace scomm::group
