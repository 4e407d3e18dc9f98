#include "kube/client/http_transport.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <cstdlib>
#include <mutex>

#include "base/log.h"

namespace kube {
namespace {

constexpr long kConnectTimeoutMs = 10000;

std::once_flag g_curl_init;

bool IsSuccess(long status) { return status >= 200 && status < 300; }

std::optional<int> ParseRetryAfter(std::string_view header_value) {
  while (!header_value.empty() && (header_value.front() == ' ' || header_value.front() == '\t'))
    header_value.remove_prefix(1);
  int seconds = 0;
  size_t digits = 0;
  for (char c : header_value) {
    if (c < '0' || c > '9') break;
    seconds = seconds * 10 + (c - '0');
    if (++digits > 6) return std::nullopt;
  }
  if (digits == 0) return std::nullopt;
  return seconds;
}

}  // namespace

// One pooled easy handle, the multi handle it runs on (which keeps its
// connection between requests), plus the per-request state its callbacks
// write to.
struct HttpTransport::Handle {
  CURL* easy = nullptr;
  CURLM* multi = nullptr;
  curl_slist* headers = nullptr;
  HttpResponse response;
  const std::function<bool(std::string_view)>* on_data = nullptr;
  std::stop_token stop;
  bool stopped_by_caller = false;

  ~Handle() {
    if (headers) curl_slist_free_all(headers);
    if (multi) curl_multi_cleanup(multi);
    if (easy) curl_easy_cleanup(easy);
  }

  void Reset() {
    if (headers) curl_slist_free_all(headers);
    headers = nullptr;
    response = HttpResponse();
    on_data = nullptr;
    stop = std::stop_token();
    stopped_by_caller = false;
  }

  static size_t OnBody(char* data, size_t size, size_t count, void* user) {
    auto* self = static_cast<Handle*>(user);
    size_t n = size * count;
    if (self->on_data) {
      long status = 0;
      curl_easy_getinfo(self->easy, CURLINFO_RESPONSE_CODE, &status);
      if (IsSuccess(status)) {
        if (!(*self->on_data)(std::string_view(data, n))) {
          self->stopped_by_caller = true;
          return 0;  // aborts the transfer
        }
        return n;
      }
    }
    self->response.body.append(data, n);
    return n;
  }

  static size_t OnHeader(char* data, size_t size, size_t count, void* user) {
    auto* self = static_cast<Handle*>(user);
    std::string_view line(data, size * count);
    constexpr std::string_view kRetryAfter = "retry-after:";
    if (line.size() > kRetryAfter.size() &&
        strncasecmp(line.data(), kRetryAfter.data(), kRetryAfter.size()) == 0) {
      self->response.retry_after_seconds = ParseRetryAfter(line.substr(kRetryAfter.size()));
    }
    return size * count;
  }

  // The transfer runs on the handle's multi handle rather than through
  // curl_easy_perform so that a stop request wakes curl_multi_poll at once:
  // curl calls the progress callback of an idle watch only about once a
  // second, which made every stopping informer wait that long.
  CURLcode Perform() {
    constexpr int kMaxPollMs = 1000;
    curl_multi_add_handle(multi, easy);
    CURLcode result = CURLE_OK;
    {
      std::stop_callback wake(stop, [this] { curl_multi_wakeup(multi); });
      while (true) {
        int running = 0;
        if (CURLMcode mc = curl_multi_perform(multi, &running); mc != CURLM_OK) {
          LOG_ERROR("curl_multi_perform failed").With("err", curl_multi_strerror(mc));
          result = CURLE_RECV_ERROR;
          break;
        }
        if (running == 0) {
          int left = 0;
          while (CURLMsg* message = curl_multi_info_read(multi, &left)) {
            if (message->msg == CURLMSG_DONE) result = message->data.result;
          }
          break;
        }
        if (stop.stop_requested()) {
          stopped_by_caller = true;
          result = CURLE_ABORTED_BY_CALLBACK;
          break;
        }
        long timeout_ms = -1;
        curl_multi_timeout(multi, &timeout_ms);
        const int wait_ms =
            timeout_ms < 0 || timeout_ms > kMaxPollMs ? kMaxPollMs : static_cast<int>(timeout_ms);
        if (CURLMcode mc = curl_multi_poll(multi, nullptr, 0, wait_ms, nullptr); mc != CURLM_OK) {
          LOG_ERROR("curl_multi_poll failed").With("err", curl_multi_strerror(mc));
          result = CURLE_RECV_ERROR;
          break;
        }
      }
    }
    curl_multi_remove_handle(multi, easy);
    return result;
  }
};

// A curl share handle plus the locks curl asks for; one mutex per lock_data kind.
struct HttpTransport::Shared {
  CURLSH* share = nullptr;
  std::mutex mu[CURL_LOCK_DATA_LAST];

  Shared() {
    share = curl_share_init();
    if (!share) return;
    curl_share_setopt(share, CURLSHOPT_LOCKFUNC, &Lock);
    curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, &Unlock);
    curl_share_setopt(share, CURLSHOPT_USERDATA, this);
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  }
  ~Shared() {
    if (share) curl_share_cleanup(share);
  }
  static void Lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
    static_cast<Shared*>(user)->mu[data].lock();
  }
  static void Unlock(CURL*, curl_lock_data data, void* user) {
    static_cast<Shared*>(user)->mu[data].unlock();
  }
};

HttpTransport::HttpTransport(RestConfig config, base::Clock& clock)
    : config_(std::move(config)),
      tokens_(std::make_unique<BearerTokenSource>(config_, clock)),
      shared_(std::make_unique<Shared>()) {}

HttpTransport::~HttpTransport() { pool_.clear(); }

base::Result<std::unique_ptr<HttpTransport>> HttpTransport::Create(const RestConfig& config,
                                                                   base::Clock& clock) {
  std::call_once(g_curl_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  if (config.server.rfind("https://", 0) != 0 && config.server.rfind("http://", 0) != 0) {
    return base::Error("API server URL must start with https:// or http://: \"" + config.server +
                       "\"");
  }
  if (!config.tls_server_name.empty()) {
    LOG_WARNING("tls-server-name is not supported and is ignored")
        .With("tlsServerName", config.tls_server_name);
  }
  std::unique_ptr<HttpTransport> transport(new HttpTransport(config, clock));
  if (!transport->shared_->share) return base::Error("curl_share_init failed");
  return transport;
}

std::unique_ptr<HttpTransport::Handle> HttpTransport::Acquire() {
  {
    std::lock_guard lock(pool_mu_);
    if (!pool_.empty()) {
      auto h = std::move(pool_.back());
      pool_.pop_back();
      return h;
    }
  }
  auto h = std::make_unique<Handle>();
  h->easy = curl_easy_init();
  h->multi = curl_multi_init();
  return h;
}

void HttpTransport::Release(std::unique_ptr<Handle> handle) {
  handle->Reset();
  std::lock_guard lock(pool_mu_);
  pool_.push_back(std::move(handle));
}

base::Status HttpTransport::Prepare(Handle& h, const HttpRequest& request) {
  CURL* c = h.easy;
  if (!c || !h.multi) return base::Error::Transport("curl_easy_init failed");
  curl_easy_reset(c);
  std::string url = config_.server + request.path;
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_SHARE, shared_->share);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, kConnectTimeoutMs);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  curl_easy_setopt(c, CURLOPT_USERAGENT, config_.user_agent.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);

  if (config_.insecure_skip_tls_verify) {
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
  } else if (!config_.ca_pem.empty()) {
    curl_blob ca{const_cast<char*>(config_.ca_pem.data()), config_.ca_pem.size(), CURL_BLOB_COPY};
    curl_easy_setopt(c, CURLOPT_CAINFO_BLOB, &ca);
  }
  if (!config_.client_cert_pem.empty()) {
    curl_blob cert{const_cast<char*>(config_.client_cert_pem.data()),
                   config_.client_cert_pem.size(), CURL_BLOB_COPY};
    curl_blob key{const_cast<char*>(config_.client_key_pem.data()), config_.client_key_pem.size(),
                  CURL_BLOB_COPY};
    curl_easy_setopt(c, CURLOPT_SSLCERTTYPE, "PEM");
    curl_easy_setopt(c, CURLOPT_SSLCERT_BLOB, &cert);
    curl_easy_setopt(c, CURLOPT_SSLKEYTYPE, "PEM");
    curl_easy_setopt(c, CURLOPT_SSLKEY_BLOB, &key);
  }

  h.headers = curl_slist_append(h.headers, "Accept: application/json");
  if (!request.content_type.empty()) {
    std::string ct = "Content-Type: " + std::string(request.content_type);
    h.headers = curl_slist_append(h.headers, ct.c_str());
  }
  auto token = tokens_->Token();
  if (!token.ok()) return token.error().Wrap("reading bearer token");
  if (!token->empty()) {
    std::string auth = "Authorization: Bearer " + *token;
    h.headers = curl_slist_append(h.headers, auth.c_str());
  }
  // An empty Expect header stops curl from waiting for "100 Continue" on large bodies.
  h.headers = curl_slist_append(h.headers, "Expect:");
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, h.headers);

  if (request.method == "GET") {
    curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
  } else {
    std::string method(request.method);  // curl copies string options
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.c_str());
    if (!request.body.empty() || request.method != "DELETE") {
      curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
    }
  }
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &Handle::OnBody);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &h);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &Handle::OnHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &h);
  return {};
}

base::Result<HttpResponse> HttpTransport::Do(const HttpRequest& request) {
  return Stream(request, nullptr, std::stop_token());
}

base::Result<HttpResponse> HttpTransport::Stream(
    const HttpRequest& request, const std::function<bool(std::string_view)>& on_data,
    std::stop_token stop) {
  auto h = Acquire();
  if (auto s = Prepare(*h, request); !s) {
    Release(std::move(h));
    return s.error();
  }
  if (on_data) h->on_data = &on_data;
  h->stop = stop;

  CURLcode rc = h->Perform();
  long status = 0;
  curl_easy_getinfo(h->easy, CURLINFO_RESPONSE_CODE, &status);
  h->response.status = status;
  bool caller_stop = h->stopped_by_caller;
  if (rc != CURLE_OK &&
      !(caller_stop && (rc == CURLE_ABORTED_BY_CALLBACK || rc == CURLE_WRITE_ERROR))) {
    std::string message = fmt::format("{} {}{}: {}", request.method, config_.server, request.path,
                                      curl_easy_strerror(rc));
    Release(std::move(h));
    return base::Error::Transport(std::move(message));
  }
  HttpResponse response = std::move(h->response);
  Release(std::move(h));
  return response;
}

}  // namespace kube
