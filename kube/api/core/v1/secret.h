// Secret (core/v1): read with a direct GET for the controller-publish secrets
// of a PV. `data` holds the decoded bytes (the JSON carries base64);
// stringData is write-only in the API and never arrives, so it is not kept.
#pragma once

#include <string>
#include <string_view>

#include "kube/api/object_meta.h"
#include "kube/api/string_map.h"

namespace kube {

struct Secret {
  static constexpr std::string_view kKind = "Secret";
  static constexpr std::string_view kApiVersion = "v1";

  ObjectMeta metadata;
  std::string type;
  StringMap data;

  bool operator==(const Secret&) const = default;
};

}  // namespace kube
