// HttpTransport: HTTPS to one API server over libcurl, with the identity and
// TLS settings of a RestConfig applied to every request (bearer token, client
// certificate, CA bundle, server-name override, user agent). It knows nothing
// of Kubernetes semantics: non-2xx answers are returned as responses, not errors;
// only failures to get an answer at all are errors (base::Error::Transport).
//
// Thread-safe. Easy handles are pooled so keep-alive connections are reused
// across calls and threads; TLS sessions and DNS are shared.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "kube/client/config.h"
#include "kube/client/token_source.h"

namespace kube {

struct HttpRequest {
  std::string_view method = "GET";
  std::string path;  // path + query, appended to RestConfig::server
  std::string_view body;
  std::string_view content_type;
  std::chrono::milliseconds timeout{0};  // whole request; 0 = none (watches)
};

struct HttpResponse {
  long status = 0;
  std::string body;
  std::optional<int> retry_after_seconds;  // from a Retry-After header in seconds
};

class HttpTransport {
 public:
  static base::Result<std::unique_ptr<HttpTransport>> Create(const RestConfig& config,
                                                             base::Clock& clock);
  ~HttpTransport();
  HttpTransport(const HttpTransport&) = delete;
  HttpTransport& operator=(const HttpTransport&) = delete;

  base::Result<HttpResponse> Do(const HttpRequest& request);

  // Sends `request` and hands body bytes to `on_data` as they arrive, until the
  // server ends the response, `on_data` returns false, or `stop` is requested
  // (noticed within about a second). For a non-2xx answer the body is not
  // streamed but returned whole in the response. A normal end returns the
  // response with an empty body.
  base::Result<HttpResponse> Stream(const HttpRequest& request,
                                    const std::function<bool(std::string_view)>& on_data,
                                    std::stop_token stop);

  const std::string& server() const { return config_.server; }

 private:
  struct Handle;
  struct Shared;
  HttpTransport(RestConfig config, base::Clock& clock);
  std::unique_ptr<Handle> Acquire();
  void Release(std::unique_ptr<Handle> handle);
  base::Status Prepare(Handle& handle, const HttpRequest& request);

  const RestConfig config_;
  std::unique_ptr<BearerTokenSource> tokens_;
  std::unique_ptr<Shared> shared_;  // DNS cache and TLS sessions shared by all handles

  std::mutex pool_mu_;  // guards pool_
  std::vector<std::unique_ptr<Handle>> pool_;
};

}  // namespace kube
