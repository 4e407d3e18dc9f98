// ObjectList<T>: one page of a LIST answer. A non-empty continue_token means
// more pages follow; remaining_item_count is the server's estimate, when sent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "kube/api/field.h"

namespace kube {

struct ListMeta {
  std::string resource_version;
  std::string continue_token;
  std::optional<int64_t> remaining_item_count;

  bool operator==(const ListMeta&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("resourceVersion", &ListMeta::resource_version),
        Field("continue", &ListMeta::continue_token),
        Field("remainingItemCount", &ListMeta::remaining_item_count),
    };
  }
};

template <class T>
struct ObjectList {
  ListMeta metadata;
  std::vector<T> items;

  static constexpr auto Fields() {
    return std::tuple{Field("metadata", &ObjectList::metadata), Field("items", &ObjectList::items)};
  }
};

}  // namespace kube
