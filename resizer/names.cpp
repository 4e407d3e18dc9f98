#include "resizer/names.h"

#include "kube/api/names.h"

namespace resizer {

bool IsResizeCondition(std::string_view type) {
  return type == kResizingCondition || type == kFileSystemResizePendingCondition ||
         type == kControllerResizeErrorCondition || type == kNodeResizeErrorCondition;
}

std::string QueueNameFor(std::string_view driver) { return std::string(driver) + "-pvc"; }

std::string LeaseNameFor(std::string_view driver) {
  return "external-resizer-" + kube::SanitizeName(driver);
}

}  // namespace resizer
