// Status (meta/v1): the body of an API error answer and the object of a watch
// ERROR event. `code` is the HTTP status (410 in a watch = resourceVersion too
// old); `reason` is the machine-readable cause, e.g. "NotFound", "Conflict".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"

namespace kube {

struct Status {
  static constexpr KindFacts kFacts{.api_version = "v1", .kind = "Status"};

  int32_t code = 0;
  std::string reason;
  std::string message;

  bool operator==(const Status&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("code", &Status::code),
        Field("reason", &Status::reason),
        Field("message", &Status::message),
    };
  }
};

KUBE_EXTERN_CODEC(Status);

}  // namespace kube
