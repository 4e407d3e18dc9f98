// BearerTokenSource: the bearer token to send with each request, following
// client-go's handling of rotating (projected) service account tokens.
//
// With a token file, the file is re-read once kRefreshAfter has passed since
// the last read (client-go caches for 1 minute minus a 10 s leeway). A read
// that fails keeps the last good file token (or, before any good read, the
// static token), logs a warning and is retried after the same period; with
// nothing to fall back on, every call retries and returns the error. Without a token file the
// static token is returned as is (empty: the config uses no bearer authentication). Thread-safe;
// time comes from the injected clock.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "kube/client/config.h"

namespace kube {

class BearerTokenSource {
 public:
  static constexpr std::chrono::seconds kRefreshAfter{50};

  BearerTokenSource(const RestConfig& config, base::Clock& clock);

  // Fails only when a token file has never been readable and there is no
  // static token to fall back on.
  base::Result<std::string> Token();

 private:
  const std::string static_token_;
  const std::string token_file_;
  base::Clock& clock_;

  std::mutex mu_;
  std::string file_token_;                           // guarded by mu_; last good read
  std::optional<base::Clock::TimePoint> last_read_;  // guarded by mu_; last attempt
};

// Reads a token file, trimming surrounding whitespace; an empty token is an
// error. Errors name the path only.
base::Result<std::string> ReadTokenFile(const std::string& path);

}  // namespace kube
