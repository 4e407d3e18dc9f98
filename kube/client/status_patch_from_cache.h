// PatchStatusFromCache: writes the status `change` computes from a cached
// copy of an object as one merge patch on the status subresource, carrying
// the copy's metadata.resourceVersion as a precondition, so no GET is needed
// before the write. When the API server answers 409 Conflict (the object
// changed since the copy), the object is read afresh, the status computed
// again from it and the patch sent again, at most kStatusConflictRetries
// times; then the conflict is returned. `change` answers nullopt, or the
// status the object already has, when nothing is to change: nothing (more) is
// sent. Returns the object as the last write (or read) left it. Any other
// error of `send` or `read` is returned as it is, for the caller to word.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "base/result.h"
#include "kube/api/codec.h"
#include "kube/api/merge_patch.h"
#include "kube/client/api_error.h"

namespace kube {

inline constexpr int kStatusConflictRetries = 2;

// The status type of T (T::status is a std::optional of it).
template <class T>
using StatusOf = typename decltype(T::status)::value_type;

// T is deduced from `cached` alone (type_identity_t), so lambdas can be passed.
template <class T>
base::Result<T> PatchStatusFromCache(
    const T& cached,
    const std::type_identity_t<std::function<std::optional<StatusOf<T>>(const T&)>>& change,
    const std::type_identity_t<std::function<base::Result<T>(const std::string&)>>& send,
    const std::type_identity_t<std::function<base::Result<T>()>>& read) {
  T current = cached;
  for (int conflicts = 0;; ++conflicts) {
    std::optional<StatusOf<T>> status = change(current);
    if (!status || status == current.status) return current;
    T modified = current;
    modified.status = std::move(status);
    nlohmann::json patch = CreateMergePatch(nlohmann::json(current), nlohmann::json(modified));
    patch["metadata"]["resourceVersion"] = current.metadata.resource_version;
    base::Result<T> written = send(patch.dump());
    if (written.ok() || !IsConflict(written.error()) || conflicts == kStatusConflictRetries) {
      return written;
    }
    base::Result<T> fresh = read();
    if (!fresh.ok()) return fresh.error();
    current = std::move(*fresh);
  }
}

}  // namespace kube
