#include "resizer/resize_claim.h"

#include <algorithm>

namespace resizer {

bool ResizeClaim::HasTrueCondition(std::string_view type) const {
  return std::ranges::any_of(status.conditions, [&](const ClaimCondition& c) {
    return c.type == type && c.status == "True";
  });
}

const ClaimCondition* ResizeClaim::FindCondition(std::string_view type) const {
  auto it = std::ranges::find(status.conditions, type, &ClaimCondition::type);
  return it == status.conditions.end() ? nullptr : &*it;
}

}  // namespace resizer
