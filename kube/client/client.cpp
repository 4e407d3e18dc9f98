#include "kube/client/client.h"

#include <errno.h>  // program_invocation_short_name (glibc)
#include <fmt/format.h>

#include <algorithm>

#include "base/log.h"
#include "base/version.h"
#include "kube/api/resource.h"
#include "kube/client/api_error.h"

namespace kube {
namespace {

constexpr int kDefaultRetryAfterSeconds = 1;
constexpr int kMaxRetryAfterSeconds = 60;

void AppendParam(std::string& query, std::string_view key, std::string_view value) {
  query += query.empty() ? '?' : '&';
  query += key;
  query += '=';
  AppendEscapedPathSegment(query, value);  // the same unreserved-only escaping suits a query value
}

bool IsSuccess(long status) { return status >= 200 && status < 300; }

// Whether an answer asks to be retried: 429 always, 5xx only with Retry-After
// (the server then promises it is transient).
bool ShouldRetry(const HttpResponse& r) {
  return r.status == 429 || (r.status >= 500 && r.retry_after_seconds.has_value());
}

}  // namespace

base::Error ErrorFromResponse(const HttpResponse& response, std::string_view method,
                              const std::string& path) {
  int code = static_cast<int>(response.status);
  if (auto status = DecodeAnswer<Status>(response.body); status.ok() && !status->message.empty()) {
    return base::Error::Http(code, status->message);
  }
  std::string excerpt = response.body.substr(0, 200);
  std::replace(excerpt.begin(), excerpt.end(), '\n', ' ');
  return base::Error::Http(code, fmt::format("{} {}: the server responded with HTTP {}{}{}", method,
                                             path, code, excerpt.empty() ? "" : ": ", excerpt));
}

Client::Client(RestConfig config, base::Clock& clock, ClientOptions options,
               std::shared_ptr<HttpTransport> transport)
    : config_(std::move(config)),
      clock_(clock),
      options_(options),
      transport_(std::move(transport)),
      limiter_(config_.qps, config_.burst, clock) {}

std::unique_ptr<Client> Client::WithOwnTokenBucket(ClientOptions options) const {
  return std::unique_ptr<Client>(new Client(config_, clock_, options, transport_));
}

std::unique_ptr<Client> Client::WithOwnTokenBucket(double qps, int burst,
                                                   ClientOptions options) const {
  RestConfig config = config_;
  config.qps = qps;
  config.burst = burst;
  return std::unique_ptr<Client>(new Client(std::move(config), clock_, options, transport_));
}

std::string Client::UserAgentFor(std::string_view program) {
  std::string_view name = program.substr(program.find_last_of('/') + 1);
  return std::string(name.empty() ? "unknown" : name) + "/" + std::string(base::Version());
}

std::string Client::DefaultUserAgent() { return UserAgentFor(program_invocation_short_name); }

base::Result<std::unique_ptr<Client>> Client::Create(RestConfig config, base::Clock& clock,
                                                     ClientOptions options) {
  if (config.user_agent.empty()) config.user_agent = DefaultUserAgent();
  auto transport = HttpTransport::Create(config, clock);
  if (!transport.ok()) return transport.error();
  return std::unique_ptr<Client>(
      new Client(std::move(config), clock, options, std::move(transport).value()));
}

base::Result<std::string> Client::Request(std::string_view method, const std::string& path,
                                          std::string_view body, std::string_view content_type,
                                          std::string_view accept) {
  HttpRequest request{method, path, body, content_type, options_.request_timeout, accept};
  for (int attempt = 0;; ++attempt) {
    limiter_.Wait(std::stop_token());
    const base::Clock::TimePoint start = clock_.Now();
    auto response = transport_->Do(request);
    if (!response.ok()) return response.error();
    // As client-go at -v=6: one line per API request and its answer.
    LOG_V(6, "Response")
        .With("verb", method)
        .With("url", path)
        .With("status", response->status)
        .With("milliseconds",
              std::chrono::duration_cast<std::chrono::milliseconds>(clock_.Now() - start).count());
    if (IsSuccess(response->status)) return std::move(response->body);
    if (attempt < kMaxRetries && ShouldRetry(*response)) {
      int wait = std::clamp(response->retry_after_seconds.value_or(kDefaultRetryAfterSeconds), 0,
                            kMaxRetryAfterSeconds);
      LOG_V(4, "Retrying API request after server asked to wait")
          .With("verb", method)
          .With("path", path)
          .With("status", response->status)
          .With("retryAfterSeconds", wait);
      clock_.SleepFor(std::chrono::seconds(wait), std::stop_token());
      continue;
    }
    return ErrorFromResponse(*response, method, path);
  }
}

base::Status Client::StreamRequest(const std::string& path, std::string_view accept,
                                   const std::function<void(const ResponseHead&)>& on_head,
                                   const std::function<bool(std::string_view)>& on_data,
                                   std::stop_token stop) {
  if (!limiter_.Wait(stop)) return {};
  HttpRequest request{"GET", path, {}, {}, std::chrono::milliseconds(0), accept};
  auto response = transport_->Stream(request, on_data, stop, on_head);
  if (!response.ok()) return response.error();
  if (!IsSuccess(response->status)) return ErrorFromResponse(*response, "GET", path);
  return {};
}

std::string Client::ListQuery(const ListOptions& o) {
  std::string query;
  if (!o.resource_version.empty()) AppendParam(query, "resourceVersion", o.resource_version);
  if (o.limit > 0) AppendParam(query, "limit", std::to_string(o.limit));
  if (!o.continue_token.empty()) AppendParam(query, "continue", o.continue_token);
  if (!o.label_selector.empty()) AppendParam(query, "labelSelector", o.label_selector);
  if (!o.field_selector.empty()) AppendParam(query, "fieldSelector", o.field_selector);
  return query;
}

std::string Client::WatchQuery(const WatchOptions& o) {
  std::string query;
  AppendParam(query, "watch", "true");
  if (!o.resource_version.empty()) AppendParam(query, "resourceVersion", o.resource_version);
  if (o.allow_bookmarks) AppendParam(query, "allowWatchBookmarks", "true");
  if (!o.label_selector.empty()) AppendParam(query, "labelSelector", o.label_selector);
  if (o.send_initial_events) {
    AppendParam(query, "sendInitialEvents", "true");
    AppendParam(query, "resourceVersionMatch", "NotOlderThan");
  }
  if (o.timeout_seconds > 0)
    AppendParam(query, "timeoutSeconds", std::to_string(o.timeout_seconds));
  return query;
}

std::string_view Client::PatchContentType(PatchType type) {
  switch (type) {
    case PatchType::kMerge:
      return "application/merge-patch+json";
    case PatchType::kJson:
      return "application/json-patch+json";
    case PatchType::kStrategicMerge:
      return "application/strategic-merge-patch+json";
  }
  return "application/merge-patch+json";
}

}  // namespace kube
