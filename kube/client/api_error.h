// Classification of errors returned by kube::Client. An answer from the API
// server is an HTTP-domain error whose code is the HTTP status (decoded from
// the server's Status object when there is one); a request that never got an
// answer (DNS, TCP, TLS, timeout, a broken watch stream) is a transport-domain
// error, which callers treat as retryable. Errors of other layers — a gRPC
// NOT_FOUND from a CSI driver, say — match none of these.
#pragma once

#include <cerrno>

#include "base/result.h"

namespace kube {

inline bool IsNotFound(const base::Error& e) { return e.IsHttp(404); }
inline bool IsConflict(const base::Error& e) { return e.IsHttp(409); }
// 422: the request cannot apply to the object as stored, e.g. a JSON Patch
// whose `test` op failed or whose path is missing, or a failed validation.
inline bool IsInvalid(const base::Error& e) { return e.IsHttp(422); }
inline bool IsGone(const base::Error& e) { return e.IsHttp(410); }  // resourceVersion too old
inline bool IsForbidden(const base::Error& e) { return e.IsHttp(403); }
inline bool IsTooManyRequests(const base::Error& e) { return e.IsHttp(429); }
inline bool IsTransportError(const base::Error& e) { return e.IsTransport(); }
// Nothing listens at the server's address: it is down or restarting.
inline bool IsConnectionRefused(const base::Error& e) {
  return e.IsTransport() && e.code == ECONNREFUSED;
}

}  // namespace kube
