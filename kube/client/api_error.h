// Classification of errors returned by kube::Client. An API error carries the
// HTTP status as base::Error::code (decoded from the server's Status object when
// there is one); code 0 means the request never got an HTTP answer (DNS, TCP,
// TLS, timeout), which callers treat as retryable.
#pragma once

#include "base/result.h"

namespace kube {

inline constexpr int kTransportError = 0;

inline bool IsNotFound(const base::Error& e) { return e.code == 404; }
inline bool IsConflict(const base::Error& e) { return e.code == 409; }
inline bool IsGone(const base::Error& e) { return e.code == 410; }  // resourceVersion too old
inline bool IsForbidden(const base::Error& e) { return e.code == 403; }
inline bool IsUnauthorized(const base::Error& e) { return e.code == 401; }
inline bool IsTooManyRequests(const base::Error& e) { return e.code == 429; }
inline bool IsTransportError(const base::Error& e) { return e.code == kTransportError; }

}  // namespace kube
