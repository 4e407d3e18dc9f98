// WatchEvent and WatchDecoder: the newline-delimited JSON event stream of a
// Kubernetes watch (`{"type":"ADDED","object":{...}}` per line), decoded
// incrementally as bytes arrive in arbitrary chunks.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/codec.h"

namespace kube {

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark, kError };

template <class T>
struct WatchEvent {
  WatchEventType type = WatchEventType::kAdded;
  T object;           // for kAdded/kModified/kDeleted; for kBookmark only metadata.resource_version
                      // and metadata.annotations
  base::Error error;  // for kError: the server's Status (code 410 = resourceVersion too old)
};

// The annotation (value "true") on the BOOKMARK that ends the initial events
// of a streaming list (WatchOptions::send_initial_events).
inline constexpr std::string_view kInitialEventsEndAnnotation = "k8s.io/initial-events-end";

template <class T>
bool IsInitialEventsEnd(const WatchEvent<T>& event) {
  if (event.type != WatchEventType::kBookmark) return false;
  auto it = event.object.metadata.annotations.find(kInitialEventsEndAnnotation);
  return it != event.object.metadata.annotations.end() && it->second == "true";
}

// Parses the `type` member; returns false for an unknown type.
bool ParseWatchEventType(std::string_view text, WatchEventType& type);

// Feeds stream bytes in; emits one event per complete line. Stops (Feed returns
// false) when the handler returns false or a line does not decode; error() then
// says why, as a transport error (the caller drops the watch and starts a new
// one). An ERROR event carries the server's Status as an HTTP-domain error.
template <class T>
class WatchDecoder {
 public:
  explicit WatchDecoder(const std::function<bool(WatchEvent<T>&&)>& on_event)
      : on_event_(on_event) {}

  bool Feed(std::string_view chunk) {
    buffer_.append(chunk);
    size_t start = 0;
    bool keep_going = true;
    for (size_t nl; keep_going && (nl = buffer_.find('\n', start)) != std::string::npos;
         start = nl + 1) {
      std::string_view line(buffer_.data() + start, nl - start);
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      keep_going = DecodeLine(line);
    }
    buffer_.erase(0, start);
    stopped_ = !keep_going;
    return keep_going;
  }

  const base::Error& error() const { return error_; }
  // True when the stream ended in the middle of an event (and not because
  // decoding stopped on purpose).
  bool HasPartialEvent() const {
    return !stopped_ && buffer_.find_first_not_of(" \t\r\n") != std::string::npos;
  }

 private:
  bool Fail(std::string message) {
    error_ = base::Error::Transport("decoding watch event: " + std::move(message));
    return false;
  }

  bool DecodeLine(std::string_view line) {
    nlohmann::json doc = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object()) return Fail("not a JSON object");
    auto type_it = doc.find("type");
    auto object_it = doc.find("object");
    if (type_it == doc.end() || !type_it->is_string() || object_it == doc.end() ||
        !object_it->is_object()) {
      return Fail("missing type or object");
    }
    WatchEvent<T> event;
    if (!ParseWatchEventType(type_it->template get_ref<const std::string&>(), event.type)) {
      return Fail("unknown event type " + type_it->dump());
    }
    if (event.type == WatchEventType::kError) {
      auto status = StatusFromJson(*object_it);
      if (!status.ok()) return Fail(status.error().message);
      event.error = base::Error::Http(status->code, status->message);
    } else {
      auto object = ObjectFromJson<T>(*object_it);
      if (!object.ok()) return Fail(object.error().message);
      event.object = std::move(object).value();
    }
    return on_event_(std::move(event));
  }

  const std::function<bool(WatchEvent<T>&&)>& on_event_;
  std::string buffer_;
  bool stopped_ = false;
  base::Error error_;
};

}  // namespace kube
