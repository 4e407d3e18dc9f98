// Status (meta/v1): the body of an API error answer and the object of a watch
// ERROR event. `code` is the HTTP status (410 in a watch = resourceVersion too
// old); `reason` is the machine-readable cause, e.g. "NotFound", "Conflict".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kube {

struct Status {
  static constexpr std::string_view kKind = "Status";
  static constexpr std::string_view kApiVersion = "v1";

  int32_t code = 0;
  std::string reason;
  std::string message;

  bool operator==(const Status&) const = default;
};

}  // namespace kube
