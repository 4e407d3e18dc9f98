// HttpTransport: HTTP to one API server, over TLS for https:// servers,
// with the identity and TLS settings of a RestConfig applied to every request
// (bearer token, client certificate, CA bundle, server-name override, user
// agent) and the proxy the environment names (proxy_selection.h). It knows
// nothing of Kubernetes semantics: non-2xx answers are returned as responses,
// not errors; only failures to get an answer at all are errors
// (base::Error::Transport).
//
// Over TLS it offers HTTP/2 (unless Http2Options turn it off) and, when the
// server takes it, carries every request on one multiplexed connection
// (http2_session.h), as client-go does; a request the server never acted on
// (a refused stream, a connection it was shutting down) goes out once more on
// a new one. Otherwise: HTTP/1.1.
//
// Thread-safe. HTTP/1.1 keep-alive connections are pooled and reused across
// calls and threads; a request that fails on a reused connection before any
// byte of an answer arrived (the server closed it while idle) is sent once
// more on a new connection. New connections resume the last TLS session.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"
#include "kube/client/config.h"
#include "kube/client/connection_pool.h"
#include "kube/client/http2_options.h"
#include "kube/client/http_message.h"
#include "kube/client/http_request_head.h"
#include "kube/client/http_response_parser.h"
#include "kube/client/http_url.h"
#include "kube/client/proxy_selection.h"
#include "kube/client/token_source.h"

namespace kube {

class Http2Session;
class TlsClientContext;

class HttpTransport {
 public:
  // Proxies and HTTP/2 settings from the process environment.
  static base::Result<std::unique_ptr<HttpTransport>> Create(const RestConfig& config,
                                                             base::Clock& clock);
  // HTTP/2 with client-go's defaults.
  static base::Result<std::unique_ptr<HttpTransport>> Create(const RestConfig& config,
                                                             base::Clock& clock,
                                                             const ProxyEnvironment& proxies);
  static base::Result<std::unique_ptr<HttpTransport>> Create(const RestConfig& config,
                                                             base::Clock& clock,
                                                             const ProxyEnvironment& proxies,
                                                             const Http2Options& http2);
  ~HttpTransport();
  HttpTransport(const HttpTransport&) = delete;
  HttpTransport& operator=(const HttpTransport&) = delete;

  base::Result<HttpResponse> Do(const HttpRequest& request);

  // Sends `request` and hands body bytes to `on_data` as they arrive, until the
  // server ends the response, `on_data` returns false, or `stop` is requested
  // (noticed at once: a stop request wakes the waiting read). For a non-2xx
  // answer the body is not streamed but returned whole in the response. A
  // normal end returns the response with an empty body. `on_head`, when set,
  // sees the head of a 2xx answer as soon as it arrived, and always before its
  // first body byte goes to `on_data` (a watch picks its decoder by the
  // Content-Type), over either HTTP version.
  base::Result<HttpResponse> Stream(const HttpRequest& request,
                                    const std::function<bool(std::string_view)>& on_data,
                                    std::stop_token stop,
                                    const std::function<void(const ResponseHead&)>& on_head = {});

  const std::string& server() const { return config_.server; }

 private:
  struct Exchanged;
  HttpTransport(RestConfig config, HttpUrl server_url, std::optional<HttpUrl> proxy,
                std::unique_ptr<TlsClientContext> tls, const Http2Options& http2,
                base::Clock& clock);

  // The HTTP/2 session to send on, dialing one when there is none that takes
  // requests; null once the server turned out to speak only HTTP/1.1 (the
  // connection dialed to learn that goes to the pool). A stop ends a dial.
  base::Result<std::shared_ptr<Http2Session>> Http2For(const IoBounds& bounds,
                                                       std::stop_token stop);
  base::Result<HttpResponse> StreamHttp2(const HttpRequest& request,
                                         const std::function<bool(std::string_view)>* on_data,
                                         std::stop_token stop,
                                         const std::function<void(const ResponseHead&)>& on_head,
                                         const RequestHead& head, const IoBounds& bounds,
                                         bool& fell_back);

  // A request's head and the strings its views point into.
  struct OwnedHead {
    std::string authorization, host, target;
    RequestHead head;
  };
  // Fills `owned` for `request` (reading the bearer token); unchecked.
  base::Status FillHead(const HttpRequest& request, OwnedHead& owned);
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
  const Http2Options http2_options_;
  std::atomic<bool> http1_only_;  // HTTP/2 is off, or the server chose HTTP/1.1
  std::mutex http2_mu_;           // guards http2_; held while dialing it
  std::shared_ptr<Http2Session> http2_;
};

}  // namespace kube
