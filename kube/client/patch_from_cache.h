// PatchFromCache: writes the JSON Patch that `build` computes from a cached
// copy of an object, and when the API server refuses it with 422 - a `test`
// op failed or a path the patch relies on is gone, so the copy was stale
// (kube/api/metadata_patch.h) - reads the object afresh and sends the patch
// computed from that copy at once, with no backoff: a stale cache is not a
// failure worth a retry delay or a saved error. A patch that comes out the
// same from the fresh copy is not sent again (the refusal was about something
// else, a failed validation say), and at most kPatchFromCacheAttempts are
// sent; then the last refusal is returned, for the caller's ordinary error
// path. An empty patch means the copy already is as wanted: nothing (more) is
// sent. Any other error of `send` or `read` is returned as it is.
#pragma once

#include <functional>
#include <string>
#include <type_traits>

#include "base/log.h"
#include "base/result.h"
#include "kube/api/json_patch.h"
#include "kube/client/api_error.h"

namespace kube {

inline constexpr int kPatchFromCacheAttempts = 4;

// T is deduced from `cached` alone (type_identity_t), so lambdas can be passed.
template <class T>
base::Status PatchFromCache(
    const T& cached, const std::type_identity_t<std::function<JsonPatch(const T&)>>& build,
    const std::type_identity_t<std::function<base::Result<T>(const std::string&)>>& send,
    const std::type_identity_t<std::function<base::Result<T>()>>& read) {
  JsonPatch patch = build(cached);
  for (int attempt = 1;; ++attempt) {
    if (patch.empty()) return base::Status::Ok();
    std::string body = patch.Serialize();
    auto sent = send(body);
    if (sent.ok()) return base::Status::Ok();
    if (!IsInvalid(sent.error()) || attempt == kPatchFromCacheAttempts) return sent.error();
    LOG_V(4, "Patch refused by a changed object, retrying with a fresh copy")
        .With(T::kFacts.kind, cached.metadata.name)
        .With("attempt", attempt);
    auto fresh = read();
    if (!fresh.ok()) return fresh.error();
    patch = build(*fresh);
    if (patch.Serialize() == body) return sent.error();
  }
}

}  // namespace kube
