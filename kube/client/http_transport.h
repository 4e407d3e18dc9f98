// HttpTransport: HTTP/1.1 to one API server, over TLS for https:// servers,
// with the identity and TLS settings of a RestConfig applied to every request
// (bearer token, client certificate, CA bundle, server-name override, user
// agent) and the proxy the environment names (proxy_selection.h). It knows
// nothing of Kubernetes semantics: non-2xx answers are returned as responses,
// not errors; only failures to get an answer at all are errors
// (base::Error::Transport).
//
// Thread-safe. Keep-alive connections are pooled and reused across calls and
// threads; a request that fails on a reused connection before any byte of an
// answer arrived (the server closed it while idle) is sent once more on a new
// connection. New connections resume the last TLS session.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"
#include "kube/client/config.h"
#include "kube/client/connection_pool.h"
#include "kube/client/http_response_parser.h"
#include "kube/client/http_url.h"
#include "kube/client/proxy_selection.h"
#include "kube/client/token_source.h"

namespace kube {

class TlsClientContext;

struct HttpRequest {
  std::string_view method = "GET";
  std::string path;  // path + query, appended to RestConfig::server
  std::string_view body;
  std::string_view content_type;
  std::chrono::milliseconds timeout{0};  // whole request; 0 = none (watches)
  std::string_view accept = "application/json";
};

struct HttpResponse {
  long status = 0;
  std::string body;
  std::optional<int> retry_after_seconds;  // from a Retry-After header in seconds
};

class HttpTransport {
 public:
  // Proxies from the process environment.
  static base::Result<std::unique_ptr<HttpTransport>> Create(const RestConfig& config,
                                                             base::Clock& clock);
  static base::Result<std::unique_ptr<HttpTransport>> Create(const RestConfig& config,
                                                             base::Clock& clock,
                                                             const ProxyEnvironment& proxies);
  ~HttpTransport();
  HttpTransport(const HttpTransport&) = delete;
  HttpTransport& operator=(const HttpTransport&) = delete;

  base::Result<HttpResponse> Do(const HttpRequest& request);

  // Sends `request` and hands body bytes to `on_data` as they arrive, until the
  // server ends the response, `on_data` returns false, or `stop` is requested
  // (noticed at once: a stop request wakes the waiting read). For a non-2xx
  // answer the body is not streamed but returned whole in the response. A
  // normal end returns the response with an empty body. `on_head`, when set,
  // sees the head of a 2xx answer before its first body byte goes to `on_data`
  // (a watch picks its decoder by the Content-Type).
  base::Result<HttpResponse> Stream(const HttpRequest& request,
                                    const std::function<bool(std::string_view)>& on_data,
                                    std::stop_token stop,
                                    const std::function<void(const ResponseHead&)>& on_head = {});

  const std::string& server() const { return config_.server; }

 private:
  struct Exchanged;
  HttpTransport(RestConfig config, HttpUrl server_url, std::optional<HttpUrl> proxy,
                std::unique_ptr<TlsClientContext> tls, base::Clock& clock);

  base::Result<std::string> FormatHead(const HttpRequest& request);
  base::Result<std::unique_ptr<Connection>> Dial(const IoBounds& bounds);
  base::Status Tunnel(Connection& connection, const IoBounds& bounds);
  base::Result<HttpResponse> Exchange(Connection& connection, std::string_view request_bytes,
                                      const std::function<bool(std::string_view)>* on_data,
                                      const std::function<void(const ResponseHead&)>& on_head,
                                      const IoBounds& bounds, Exchanged& outcome);

  const RestConfig config_;
  const HttpUrl server_url_;
  const std::optional<HttpUrl> proxy_;           // http:// proxy, or none
  const std::string proxy_authorization_;        // "Basic ..." when the proxy URL has userinfo
  const std::unique_ptr<TlsClientContext> tls_;  // null for an http:// server
  std::unique_ptr<BearerTokenSource> tokens_;
  ConnectionPool pool_;
};

}  // namespace kube
