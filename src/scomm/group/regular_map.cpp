#include "scomm/group/regular_map.hpp"

#include "scomm/group/box_map.hpp"
#include "scomm/group/direct_map.hpp"
#include "scomm/group/offset_map.hpp"
#include "scomm/group/stride_block_map.hpp"
#include "scomm/group/stride_map.hpp"

namespace scomm::group {

MapPtr make_regular_map(const Box& box) {
  const auto base = static_cast<Rank>(box.base());
  switch (box.kind()) {
    case BoxKind::kEmpty:
      return std::make_shared<DirectMap>(0);
    case BoxKind::kDirect:
      return std::make_shared<DirectMap>(box.size());
    case BoxKind::kOffset:
      return std::make_shared<OffsetMap>(base, box.size());
    case BoxKind::kStride:
      return std::make_shared<StrideMap>(base, box.dim(0).stride, box.size());
    case BoxKind::kStrideBlock:
      return std::make_shared<StrideBlockMap>(base, box.dim(0).count, box.dim(1).stride,
                                              box.size());
    case BoxKind::kBox:
      break;
  }
  return std::make_shared<BoxMap>(box);
}

}  // namespace scomm::group
