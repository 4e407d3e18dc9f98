// The lookups of an annotation the provisioner's controllers share: the value
// of `key` on an object's metadata, or null when it has none (an empty value
// is a value).
#pragma once

#include <string>
#include <string_view>

#include "kube/api/object_meta.h"

namespace provisioner {

inline const std::string* AnnotationOf(const kube::ObjectMeta& metadata, std::string_view key) {
  auto it = metadata.annotations.find(key);
  return it == metadata.annotations.end() ? nullptr : &it->second;
}

// The same, "" when absent.
inline std::string_view AnnotationValue(const kube::ObjectMeta& metadata, std::string_view key) {
  const std::string* value = AnnotationOf(metadata, key);
  return value ? std::string_view(*value) : std::string_view();
}

}  // namespace provisioner
