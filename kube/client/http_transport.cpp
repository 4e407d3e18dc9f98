#include "kube/client/http_transport.h"

#include <fmt/format.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

#include "kube/api/base64.h"
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
                             std::unique_ptr<TlsClientContext> tls, base::Clock& clock)
    : config_(std::move(config)),
      server_url_(std::move(server_url)),
      proxy_(std::move(proxy)),
      proxy_authorization_(proxy_ && !proxy_->userinfo.empty()
                               ? "Basic " + EncodeBase64(proxy_->userinfo)
                               : std::string()),
      tls_(std::move(tls)),
      tokens_(std::make_unique<BearerTokenSource>(config_, clock)) {}

HttpTransport::~HttpTransport() = default;

base::Result<std::unique_ptr<HttpTransport>> HttpTransport::Create(const RestConfig& config,
                                                                   base::Clock& clock) {
  return Create(config, clock, ProxyEnvironment::FromProcess());
}

base::Result<std::unique_ptr<HttpTransport>> HttpTransport::Create(
    const RestConfig& config, base::Clock& clock, const ProxyEnvironment& proxies) {
  auto server_url = HttpUrl::Parse(config.server);
  if (!server_url.ok()) {
    return base::Error("API server URL \"" + config.server +
                       "\" must be an https:// or http:// URL: " + server_url.error().message);
  }
  auto proxy = SelectProxy(proxies, *server_url);
  if (!proxy.ok()) return proxy.error();
  std::unique_ptr<TlsClientContext> tls;
  if (server_url->tls()) {
    auto context = TlsClientContext::Create(config);
    if (!context.ok()) return context.error().Wrap("TLS configuration");
    tls = std::move(context).value();
  }
  return std::unique_ptr<HttpTransport>(new HttpTransport(
      config, std::move(server_url).value(), std::move(proxy).value(), std::move(tls), clock));
}

base::Result<std::string> HttpTransport::FormatHead(const HttpRequest& request) {
  auto token = tokens_->Token();
  if (!token.ok()) return token.error().Wrap("reading bearer token");
  const std::string authorization = token->empty() ? std::string() : "Bearer " + *token;
  const std::string host = server_url_.HostHeader();
  std::string target = server_url_.path + request.path;
  // Through an http:// proxy a plain request names its absolute URL; https
  // ones travel in a CONNECT tunnel and look direct.
  if (proxy_ && !server_url_.tls()) target.insert(0, "http://" + host);
  RequestHead head;
  head.method = request.method;
  head.target = target;
  head.host = host;
  head.user_agent = config_.user_agent;
  head.authorization = authorization;
  if (proxy_ && !server_url_.tls()) head.proxy_authorization = proxy_authorization_;
  head.content_type = request.content_type;
  head.accept = request.accept;
  if (request.method != "GET" && (!request.body.empty() || request.method != "DELETE")) {
    head.content_length = request.body.size();
  }
  auto text = FormatRequestHead(head);
  if (!text.ok()) return text.error();
  text->append(request.body);
  return text;
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

base::Result<HttpResponse> HttpTransport::Stream(
    const HttpRequest& request, const std::function<bool(std::string_view)>& on_data,
    std::stop_token stop, const std::function<void(const ResponseHead&)>& on_head) {
  auto fail = [&](std::string_view why) {
    return base::Error::Transport(
        fmt::format("{} {}{}: {}", request.method, config_.server, request.path, why));
  };
  auto request_bytes = FormatHead(request);
  if (!request_bytes.ok()) return request_bytes.error();
  WakeOnStop wake(stop);
  IoBounds bounds;
  bounds.wake_fd = wake.fd();
  if (request.timeout.count() > 0) bounds.deadline = SteadyClock::now() + request.timeout;
  auto timed_out = [&] { return bounds.deadline && SteadyClock::now() >= *bounds.deadline; };
  const auto* sink = on_data ? &on_data : nullptr;

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
