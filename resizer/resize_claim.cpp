#include "resizer/resize_claim.h"

#include <algorithm>

namespace resizer {

bool ResizeClaim::HasTrueCondition(std::string_view type) const {
  return std::ranges::any_of(status.conditions, [&](const ClaimCondition& c) {
    return c.type == type && c.status == "True";
  });
}

}  // namespace resizer
