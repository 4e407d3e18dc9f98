// Client: the Kubernetes REST API for any kind that states its facts (kind.h)
// and field table (field.h) - built-in or custom resource - on top of
// HttpTransport. Every request waits on the client's QPS/burst token bucket
// first (--kube-api-qps / --kube-api-burst semantics); WithOwnTokenBucket
// makes another client over the same transport with a bucket of its own, as
// client-go gives each clientset built from one rest.Config its own limiter. A non-2xx answer
// becomes an HTTP-domain base::Error (base::Error::Http) whose code is the HTTP status and whose
// message is the server's Status message; see api_error.h. 429 (and 5xx carrying Retry-After) is
// retried after the server's Retry-After, at most kMaxRetries times. Kinds with a protobuf
// decoder (VolumeAttachment, PersistentVolume) ask for protobuf answers, as client-go does, and
// every answer is read in the encoding the server chose (DecodeAnswer); request bodies are JSON.
// Every successful create, update and patch is reported to the calling thread's WriteObserver
// (write_observer.h), so a controller can tell its own writes' events from others'.
//
// Thread-safe: one Client is shared by all workers and reflectors.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/codec.h"
#include "kube/api/proto/decode.h"
#include "kube/api/resource.h"
#include "kube/api/watch_event.h"
#include "kube/api/watch_stream_decoder.h"
#include "kube/client/api_error.h"
#include "kube/client/config.h"
#include "kube/client/http_transport.h"
#include "kube/client/token_bucket.h"
#include "kube/client/write_observer.h"

namespace kube {

enum class PatchType { kMerge, kJson, kStrategicMerge };

struct ListOptions {
  std::string resource_version;  // "" = consistent read from etcd
  std::string continue_token;
  int64_t limit = 0;  // 0 = no paging
  std::string label_selector;
  std::string field_selector;
};

struct WatchOptions {
  std::string resource_version;
  int timeout_seconds = 0;  // server-side watch timeout; 0 = server default
  bool allow_bookmarks = true;
  std::string label_selector;  // e.g. "snapshot.storage.kubernetes.io/managed-by=node-1"
  // Streaming list (WatchList): the stream starts with an ADDED event for every
  // object at least as new as `resource_version` ("" = a consistent read), ends
  // that part with a BOOKMARK marked by IsInitialEventsEnd, then goes on as a
  // plain watch. Sent as sendInitialEvents=true&resourceVersionMatch=NotOlderThan;
  // servers without the feature answer 400/422 or ignore it.
  bool send_initial_events = false;
};

struct ClientOptions {
  std::chrono::milliseconds request_timeout{60000};  // unary requests; watches have none
};

class Client {
 public:
  static constexpr int kMaxRetries = 10;

  // "<basename of program>/<version>", the way client-go names the binary
  // that runs ("unknown" for an empty name).
  static std::string UserAgentFor(std::string_view program);
  // Sent when RestConfig::user_agent is empty: UserAgentFor this process's argv[0].
  static std::string DefaultUserAgent();

  static base::Result<std::unique_ptr<Client>> Create(RestConfig config,
                                                      base::Clock& clock = base::Clock::Real(),
                                                      ClientOptions options = {});

  // Sends one request and returns the body of a 2xx answer.
  base::Result<std::string> Request(std::string_view method, const std::string& path,
                                    std::string_view body = {}, std::string_view content_type = {},
                                    std::string_view accept = "application/json");

  template <class T>
  base::Result<T> Get(std::string_view ns, std::string_view name) {
    return Decoded<T>(Request("GET", ResourcePath<T>(ns, name), {}, {}, kAcceptFor<T>));
  }

  template <class T>
  base::Result<ObjectList<T>> List(std::string_view ns, const ListOptions& options = {}) {
    return Decoded<ObjectList<T>>(
        Request("GET", ResourcePath<T>(ns) + ListQuery(options), {}, {}, kAcceptFor<T>));
  }

  template <class T>
  base::Result<T> Create(const T& object) {
    return Written<T>(Request("POST", ResourcePath<T>(object.metadata.namespace_),
                              EncodeObject(object), "application/json", kAcceptFor<T>));
  }

  // PUT; optimistic concurrency through object.metadata.resource_version.
  template <class T>
  base::Result<T> Update(const T& object) {
    return Written<T>(Request("PUT",
                              ResourcePath<T>(object.metadata.namespace_, object.metadata.name),
                              EncodeObject(object), "application/json", kAcceptFor<T>));
  }

  // PUT of the status subresource: only object.status is written.
  template <class T>
  base::Result<T> UpdateStatus(const T& object) {
    static_assert(T::kFacts.status_subresource, "the kind has no status subresource");
    return Written<T>(Request(
        "PUT", ResourcePath<T>(object.metadata.namespace_, object.metadata.name) + "/status",
        EncodeObject(object), "application/json", kAcceptFor<T>));
  }

  // `patch` is a document of `type`: a merge patch, an RFC 6902 JSON Patch
  // (see JsonPatch, whose `test` ops make the server refuse a stale patch with
  // 422) or a strategic merge patch (built-in kinds only).
  template <class T>
  base::Result<T> Patch(std::string_view ns, std::string_view name, PatchType type,
                        std::string_view patch, std::string_view subresource = {}) {
    std::string path = ResourcePath<T>(ns, name);
    if (!subresource.empty()) path += "/" + std::string(subresource);
    return Written<T>(Request("PATCH", path, patch, PatchContentType(type), kAcceptFor<T>));
  }

  template <class T>
  base::Result<T> PatchStatus(std::string_view ns, std::string_view name, PatchType type,
                              std::string_view patch) {
    static_assert(T::kFacts.status_subresource, "the kind has no status subresource");
    return Patch<T>(ns, name, type, patch, "status");
  }

  template <class T>
  base::Status Delete(std::string_view ns, std::string_view name) {
    auto body = Request("DELETE", ResourcePath<T>(ns, name));
    if (!body.ok()) return body.error();
    return {};
  }

  // Opens a watch and calls `on_event` for each event until the server ends the
  // stream (ok), `on_event` returns false (ok), `stop` is requested (ok), or an
  // error: the watch could not be opened (an HTTP or transport error), or the
  // stream carried bytes that do not decode (a transport error). An ERROR event
  // from the server is delivered to `on_event`, not returned. Kinds with a
  // protobuf decoder ask for protobuf and read what the server answers
  // (watch_stream_decoder.h).
  template <class T>
  base::Status Watch(std::string_view ns, const WatchOptions& options,
                     const std::function<bool(WatchEvent<T>&&)>& on_event, std::stop_token stop) {
    WatchStreamDecoder<T> decoder(on_event);
    auto status = StreamRequest(
        ResourcePath<T>(ns) + WatchQuery(options), WatchStreamDecoder<T>::kWatchAccept,
        [&](const ResponseHead& head) { decoder.SetContentType(head.content_type); },
        [&](std::string_view chunk) { return decoder.Feed(chunk); }, stop);
    if (!status.ok()) return status;
    if (!decoder.error().message.empty()) return decoder.error();
    if (decoder.HasPartialEvent() && !stop.stop_requested()) {
      return base::Error::Transport("watch stream truncated in the middle of an event");
    }
    return {};
  }

  // Another client over this one's transport (same server, identity and
  // connection pool) with `options` and a full token bucket of its own.
  std::unique_ptr<Client> WithOwnTokenBucket(ClientOptions options = {}) const;
  // The same with a bucket of `qps` and `burst` (as a rest.Config copy with
  // other limits would give).
  std::unique_ptr<Client> WithOwnTokenBucket(double qps, int burst,
                                             ClientOptions options = {}) const;

  const RestConfig& config() const { return config_; }

 private:
  Client(RestConfig config, base::Clock& clock, ClientOptions options,
         std::shared_ptr<HttpTransport> transport);

  template <class T>
  static base::Result<T> Decoded(base::Result<std::string> body) {
    if (!body.ok()) return body.error();
    return DecodeAnswer<T>(*body);
  }
  // Decoded, and the written object reported to this thread's WriteObserver.
  template <class T>
  static base::Result<T> Written(base::Result<std::string> body) {
    base::Result<T> written = Decoded<T>(std::move(body));
    if (written.ok()) ReportWrite(*written);
    return written;
  }

  base::Status StreamRequest(const std::string& path, std::string_view accept,
                             const std::function<void(const ResponseHead&)>& on_head,
                             const std::function<bool(std::string_view)>& on_data,
                             std::stop_token stop);
  static std::string ListQuery(const ListOptions& options);
  static std::string WatchQuery(const WatchOptions& options);
  static std::string_view PatchContentType(PatchType type);

  const RestConfig config_;
  base::Clock& clock_;
  const ClientOptions options_;
  const std::shared_ptr<HttpTransport> transport_;  // shared with WithOwnTokenBucket's clients
  TokenBucket limiter_;
};

// Turns a non-2xx answer into an Error: the server's Status message when the
// body is a Status object, else a short excerpt of the body.
base::Error ErrorFromResponse(const HttpResponse& response, std::string_view method,
                              const std::string& path);

}  // namespace kube
