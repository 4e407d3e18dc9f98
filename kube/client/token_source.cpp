#include "kube/client/token_source.h"

#include "base/ascii.h"
#include "base/file.h"
#include "base/log.h"

namespace kube {

base::Result<std::string> ReadTokenFile(const std::string& path) {
  auto contents = base::ReadFile(path);
  if (!contents.ok()) return contents.error();
  std::string_view token = base::TrimSpace(*contents);
  if (token.empty()) return base::Error("token file " + path + " is empty");
  return std::string(token);
}

BearerTokenSource::BearerTokenSource(const RestConfig& config, base::Clock& clock)
    : static_token_(config.bearer_token), token_file_(config.bearer_token_file), clock_(clock) {}

base::Result<std::string> BearerTokenSource::Token() {
  if (token_file_.empty()) return static_token_;
  std::lock_guard lock(mu_);
  auto now = clock_.Now();
  if (last_read_ && now - *last_read_ < kRefreshAfter) {
    if (!file_token_.empty()) return file_token_;
    if (!static_token_.empty()) return static_token_;
  }
  last_read_ = now;
  auto read = ReadTokenFile(token_file_);
  if (read.ok()) {
    file_token_ = std::move(read).value();
    return file_token_;
  }
  if (!file_token_.empty() || !static_token_.empty()) {
    LOG_WARNING("Unable to rotate token").With("err", read.error().message);
    return file_token_.empty() ? static_token_ : file_token_;
  }
  return read.error();
}

}  // namespace kube
