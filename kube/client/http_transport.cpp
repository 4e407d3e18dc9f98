#include "kube/client/http_transport.h"

#include <fmt/format.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

#include "kube/api/base64.h"
#include "kube/client/http2_session.h"
#include "kube/client/http_request_head.h"
#include "kube/client/http_response_parser.h"
#include "kube/client/tls_client_context.h"

namespace kube {
namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr size_t kReadBufferBytes = 16 * 1024;

bool IsSuccess(long status) { return status >= 200 && status < 300; }

// An eventfd that turns readable when `stop` is requested, so that a
// connection's poll wakes at once rather than at its next timeout.
class WakeOnStop {
 public:
  explicit WakeOnStop(std::stop_token stop) {
    if (!stop.stop_possible()) return;
    fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (fd_ >= 0) callback_.emplace(stop, Signal{fd_});
  }
  ~WakeOnStop() {
    callback_.reset();  // waits for a running callback before the fd goes
    if (fd_ >= 0) ::close(fd_);
  }
  WakeOnStop(const WakeOnStop&) = delete;
  WakeOnStop& operator=(const WakeOnStop&) = delete;
  int fd() const { return fd_; }

 private:
  struct Signal {
    int fd;
    void operator()() const {
      uint64_t one = 1;
      [[maybe_unused]] ssize_t n = ::write(fd, &one, sizeof one);
    }
  };
  int fd_ = -1;
  std::optional<std::stop_callback<Signal>> callback_;
};

}  // namespace

// What one exchange on a connection left behind.
struct HttpTransport::Exchanged {
  bool received_any = false;  // a byte of the answer arrived
  bool reusable = false;      // the connection may carry the next request
  bool head_complete = false;
  long status = 0;  // once head_complete
};

HttpTransport::HttpTransport(RestConfig config, HttpUrl server_url, std::optional<HttpUrl> proxy,
                             std::unique_ptr<TlsClientContext> tls, const Http2Options& http2,
                             base::Clock& clock)
    : config_(std::move(config)),
      server_url_(std::move(server_url)),
      proxy_(std::move(proxy)),
      proxy_authorization_(proxy_ && !proxy_->userinfo.empty()
                               ? "Basic " + EncodeBase64(proxy_->userinfo)
                               : std::string()),
      tls_(std::move(tls)),
      tokens_(std::make_unique<BearerTokenSource>(config_, clock)),
      http2_options_(http2),
      http1_only_(!tls_ || !http2.enabled) {}

HttpTransport::~HttpTransport() {
  std::lock_guard lock(http2_mu_);
  if (http2_) http2_->Close();  // ends the requests still waiting on it
}

base::Result<std::unique_ptr<HttpTransport>> HttpTransport::Create(const RestConfig& config,
                                                                   base::Clock& clock) {
  return Create(config, clock, ProxyEnvironment::FromProcess(), Http2Options::FromProcess());
}

base::Result<std::unique_ptr<HttpTransport>> HttpTransport::Create(
    const RestConfig& config, base::Clock& clock, const ProxyEnvironment& proxies) {
  return Create(config, clock, proxies, Http2Options());
}

base::Result<std::unique_ptr<HttpTransport>> HttpTransport::Create(const RestConfig& config,
                                                                   base::Clock& clock,
                                                                   const ProxyEnvironment& proxies,
                                                                   const Http2Options& http2) {
  auto server_url = HttpUrl::Parse(config.server);
  if (!server_url.ok()) {
    return base::Error("API server URL \"" + config.server +
                       "\" must be an https:// or http:// URL: " + server_url.error().message);
  }
  auto proxy = SelectProxy(proxies, *server_url);
  if (!proxy.ok()) return proxy.error();
  std::unique_ptr<TlsClientContext> tls;
  if (server_url->tls()) {
    auto context = TlsClientContext::Create(config, http2.enabled);
    if (!context.ok()) return context.error().Wrap("TLS configuration");
    tls = std::move(context).value();
  }
  return std::unique_ptr<HttpTransport>(new HttpTransport(config, std::move(server_url).value(),
                                                          std::move(proxy).value(), std::move(tls),
                                                          http2, clock));
}

base::Status HttpTransport::FillHead(const HttpRequest& request, OwnedHead& owned) {
  auto token = tokens_->Token();
  if (!token.ok()) return token.error().Wrap("reading bearer token");
  owned.authorization = token->empty() ? std::string() : "Bearer " + *token;
  owned.host = server_url_.HostHeader();
  owned.target = server_url_.path + request.path;
  // Through an http:// proxy a plain request names its absolute URL; https
  // ones travel in a CONNECT tunnel and look direct.
  if (proxy_ && !server_url_.tls()) owned.target.insert(0, "http://" + owned.host);
  RequestHead& head = owned.head;
  head.method = request.method;
  head.target = owned.target;
  head.host = owned.host;
  head.user_agent = config_.user_agent;
  head.authorization = owned.authorization;
  if (proxy_ && !server_url_.tls()) head.proxy_authorization = proxy_authorization_;
  head.content_type = request.content_type;
  head.accept = request.accept;
  if (request.method != "GET" && (!request.body.empty() || request.method != "DELETE")) {
    head.content_length = request.body.size();
  }
  return {};
}

base::Status HttpTransport::Tunnel(Connection& connection, const IoBounds& bounds) {
  const std::string authority = server_url_.Authority();
  RequestHead connect;
  connect.method = "CONNECT";
  connect.target = authority;
  connect.host = authority;
  connect.user_agent = config_.user_agent;
  connect.accept = {};
  connect.proxy_authorization = proxy_authorization_;
  auto head = FormatRequestHead(connect);
  if (!head.ok()) return head.error();
  if (auto status = connection.WriteAll(*head, bounds); !status.ok()) return status;
  HttpResponseParser parser(/*head_only=*/true);
  char buffer[4096];
  while (!parser.complete()) {
    auto n = connection.Read(buffer, sizeof buffer, bounds);
    if (!n.ok()) return n.error();
    if (*n == 0) {
      return base::Error::Transport("the proxy closed the connection before answering CONNECT");
    }
    auto consumed = parser.Feed({buffer, *n}, [](std::string_view) { return true; });
    if (!consumed.ok()) return base::Error::Transport("proxy: " + consumed.error().message);
    if (*consumed < *n)
      return base::Error::Transport("the proxy sent data before the tunnel was used");
  }
  if (!IsSuccess(parser.head().status)) {
    return base::Error::Transport(
        fmt::format("the proxy answered CONNECT with status {}", parser.head().status));
  }
  return {};
}

base::Result<std::unique_ptr<Connection>> HttpTransport::Dial(const IoBounds& bounds) {
  const HttpUrl& first_hop = proxy_ ? *proxy_ : server_url_;
  auto connection = Connection::Open(first_hop.host, first_hop.port, bounds);
  if (!connection.ok()) {
    return proxy_ ? connection.error().Wrap("proxy") : connection.error();
  }
  if (proxy_ && server_url_.tls()) {
    if (auto status = Tunnel(**connection, bounds); !status.ok()) return status.error();
  }
  if (tls_) {
    const std::string& name =
        config_.tls_server_name.empty() ? server_url_.host : config_.tls_server_name;
    auto ssl = tls_->NewSsl(name);
    if (!ssl.ok()) return base::Error::Transport(ssl.error().message);
    if (auto status = (*connection)->StartTls(*ssl, bounds); !status.ok()) return status.error();
  }
  return connection;
}

base::Result<HttpResponse> HttpTransport::Exchange(
    Connection& connection, std::string_view request_bytes,
    const std::function<bool(std::string_view)>* on_data,
    const std::function<void(const ResponseHead&)>& on_head, const IoBounds& bounds,
    Exchanged& outcome) {
  if (auto status = connection.WriteAll(request_bytes, bounds); !status.ok()) {
    return status.error();
  }
  HttpResponseParser parser;
  HttpResponse response;
  bool head_shown = false;
  auto sink = [&](std::string_view bytes) {
    if (on_data && IsSuccess(parser.head().status)) {
      if (!head_shown && on_head) on_head(parser.head());
      head_shown = true;
      return (*on_data)(bytes);
    }
    response.body.append(bytes);
    return true;
  };
  bool leftover = false, closed = false;
  char buffer[kReadBufferBytes];
  while (!parser.complete() && !parser.stopped_by_sink()) {
    outcome.head_complete = parser.head_complete();
    outcome.status = parser.head().status;
    auto n = connection.Read(buffer, sizeof buffer, bounds);
    if (!n.ok()) return n.error();
    if (*n == 0) {
      closed = true;
      if (auto status = parser.FinishAtEof(); !status.ok()) {
        return base::Error::Transport(status.error().message);
      }
      break;
    }
    outcome.received_any = true;
    auto consumed = parser.Feed({buffer, *n}, sink);
    if (!consumed.ok()) return base::Error::Transport(consumed.error().message);
    leftover = parser.complete() && *consumed < *n;
    // A watch's head arrives alone, well before its first event.
    if (!head_shown && on_data && on_head && parser.head_complete() &&
        IsSuccess(parser.head().status)) {
      on_head(parser.head());
      head_shown = true;
    }
  }
  outcome.head_complete = parser.head_complete();
  outcome.reusable = parser.complete() && !parser.stopped_by_sink() && parser.head().keep_alive &&
                     !leftover && !closed;
  response.status = parser.head().status;
  response.retry_after_seconds = parser.head().retry_after_seconds;
  if (on_data && IsSuccess(response.status)) response.body.clear();
  return response;
}

base::Result<HttpResponse> HttpTransport::Do(const HttpRequest& request) {
  return Stream(request, nullptr, std::stop_token());
}

base::Result<std::shared_ptr<Http2Session>> HttpTransport::Http2For(const IoBounds& bounds,
                                                                    std::stop_token stop) {
  std::lock_guard lock(http2_mu_);
  if (http2_ && http2_->accepting()) return http2_;
  // Only a dial needs the stop as a descriptor: most requests find the
  // session and skip the eventfd's two system calls.
  WakeOnStop wake(stop);
  IoBounds dial_bounds = bounds;
  dial_bounds.wake_fd = wake.fd();
  auto connection = Dial(dial_bounds);
  if (!connection.ok()) return connection.error();
  if ((*connection)->NegotiatedProtocol() != "h2") {
    http1_only_ = true;
    pool_.ReturnIdle(std::move(connection).value());
    return std::shared_ptr<Http2Session>();
  }
  auto session = Http2Session::Start(std::move(connection).value(), http2_options_);
  if (!session.ok()) return session.error();
  // A session that stopped taking requests lives on with those it carries.
  http2_ = std::move(session).value();
  return http2_;
}

base::Result<HttpResponse> HttpTransport::StreamHttp2(
    const HttpRequest& request, const std::function<bool(std::string_view)>* on_data,
    std::stop_token stop, const std::function<void(const ResponseHead&)>& on_head,
    const RequestHead& head, const IoBounds& bounds, bool& fell_back) {
  const std::string content_length =
      head.content_length ? std::to_string(*head.content_length) : std::string();
  std::vector<Http2Session::Header> headers = {
      {":method", head.method},
      {":scheme", "https"},
      {":authority", head.host},
      {":path", head.target},
  };
  const std::pair<std::string_view, std::string_view> optional[] = {
      {"user-agent", head.user_agent},       {"accept", head.accept},
      {"authorization", head.authorization}, {"content-type", head.content_type},
      {"content-length", content_length},
  };
  for (const auto& [name, value] : optional) {
    if (!value.empty()) headers.emplace_back(name, value);
  }
  for (bool retried = false;; retried = true) {
    auto session = Http2For(bounds, stop);
    if (!session.ok()) return session.error();
    if (!*session) {
      fell_back = true;
      return HttpResponse();
    }
    bool unprocessed = false;
    auto response = (*session)->Exchange(headers, request.body, on_data, on_head, bounds.deadline,
                                         stop, unprocessed);
    // The server never acted on it: once more, on a connection that takes it.
    if (response.ok() || !unprocessed || retried || stop.stop_requested()) return response;
  }
}

base::Result<HttpResponse> HttpTransport::Stream(
    const HttpRequest& request, const std::function<bool(std::string_view)>& on_data,
    std::stop_token stop, const std::function<void(const ResponseHead&)>& on_head) {
  auto fail = [&](std::string_view why) {
    return base::Error::Transport(
        fmt::format("{} {}{}: {}", request.method, config_.server, request.path, why));
  };
  OwnedHead owned;
  if (auto status = FillHead(request, owned); !status.ok()) return status.error();
  IoBounds bounds;
  if (request.timeout.count() > 0) bounds.deadline = SteadyClock::now() + request.timeout;
  auto timed_out = [&] { return bounds.deadline && SteadyClock::now() >= *bounds.deadline; };
  const auto* sink = on_data ? &on_data : nullptr;
  if (!http1_only_) {
    // FormatRequestHead checks the head on the HTTP/1.1 path below.
    if (auto status = CheckRequestHead(owned.head); !status.ok()) return status.error();
    bool fell_back = false;
    auto response = StreamHttp2(request, sink, stop, on_head, owned.head, bounds, fell_back);
    if (response.ok() && !fell_back) return response;
    if (!response.ok()) {
      if (timed_out()) return fail(fmt::format("timed out after {} ms", request.timeout.count()));
      return fail(response.error().message);
    }
  }
  WakeOnStop wake(stop);
  bounds.wake_fd = wake.fd();
  auto request_bytes = FormatRequestHead(owned.head);
  if (!request_bytes.ok()) return request_bytes.error();
  request_bytes->append(request.body);

  bool retried = false;
  while (true) {
    std::unique_ptr<Connection> connection = retried ? nullptr : pool_.TakeIdle();
    const bool reused = connection != nullptr;
    if (!connection) {
      auto dialed = Dial(bounds);
      if (!dialed.ok()) {
        if (stop.stop_requested()) return fail("stopped before the response");
        if (timed_out()) return fail(fmt::format("timed out after {} ms", request.timeout.count()));
        return fail(dialed.error().message);
      }
      connection = std::move(dialed).value();
    }
    Exchanged outcome;
    auto response = Exchange(*connection, *request_bytes, sink, on_head, bounds, outcome);
    if (response.ok()) {
      if (outcome.reusable) pool_.ReturnIdle(std::move(connection));
      return response;
    }
    if (stop.stop_requested()) {
      if (!outcome.head_complete) return fail("stopped before the response");
      HttpResponse stopped;
      stopped.status = outcome.status;
      return stopped;
    }
    if (timed_out()) return fail(fmt::format("timed out after {} ms", request.timeout.count()));
    // The server closed a pooled connection while it sat idle: nothing was
    // processed, so the request goes out once more on a new connection.
    if (reused && !outcome.received_any) {
      retried = true;
      continue;
    }
    return fail(response.error().message);
  }
}

}  // namespace kube
