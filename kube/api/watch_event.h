// WatchEvent and WatchDecoder: the newline-delimited JSON event stream of a
// Kubernetes watch (`{"type":"ADDED","object":{...}}` per line), decoded
// incrementally as bytes arrive in arbitrary chunks, each line straight into
// the event's struct by the stream codec (stream_codec.h), without a DOM.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/codec.h"
#include "kube/api/json_reader.h"
#include "kube/api/status.h"

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

  // One pass over the line: the server writes `type` before `object`, so the
  // object is decoded where it stands. Only when `object` comes first, or a
  // repeated key changes which object or type counts (the last one, as in a
  // DOM), is it decoded again from its position afterwards.
  bool DecodeLine(std::string_view line) {
    JsonReader in(line);
    WatchEvent<T> event;
    std::string type_text;
    bool has_type = false;
    bool type_is_string = false;
    bool has_object = false;
    JsonType object_type = JsonType::kNull;
    JsonReader::Position object_at{};
    std::optional<size_t> decoded_at;  // where the object was decoded from, and as what
    bool decoded_as_status = false;
    std::string decode_failure;
    try {
      in.BeginObject();
      for (std::string_view key; in.NextMember(key);) {
        if (key == "type") {
          has_type = true;
          type_is_string = in.Peek() == JsonType::kString;
          if (type_is_string) {
            in.ReadString(type_text);
          } else {
            in.SkipValue();
          }
        } else if (key == "object") {
          has_object = true;
          object_at = in.Tell();
          object_type = in.Peek();
          WatchEventType type;
          if (object_type == JsonType::kObject && type_is_string &&
              ParseWatchEventType(type_text, type)) {
            decoded_at = object_at.pos;
            decoded_as_status = type == WatchEventType::kError;
            decode_failure = ReadEventObject(in, decoded_as_status, event);
          } else {
            in.SkipValue();
          }
        } else {
          in.SkipValue();
        }
      }
      in.ExpectEnd();
      if (!has_type || !type_is_string || !has_object || object_type != JsonType::kObject) {
        return Fail("missing type or object");
      }
      if (!ParseWatchEventType(type_text, event.type)) {
        return Fail("unknown event type " + nlohmann::json(type_text).dump());
      }
      bool as_status = event.type == WatchEventType::kError;
      if (decoded_at != object_at.pos || decoded_as_status != as_status) {
        in.Seek(object_at);
        decode_failure = ReadEventObject(in, as_status, event);
      }
    } catch (const JsonSyntaxError&) {
      return Fail("not a JSON object");
    }
    if (!decode_failure.empty()) return Fail(std::move(decode_failure));
    return on_event_(std::move(event));
  }

  // Reads the event's object (a Status for an ERROR event) into `event`;
  // returns why it does not decode, the reader then standing after it.
  static std::string ReadEventObject(JsonReader& in, bool as_status, WatchEvent<T>& event) {
    JsonReader::Position start = in.Tell();
    try {
      if (as_status) {
        Status status;
        codec_internal::ReadValue(in, status);
        event.object = T();
        event.error = base::Error::Http(status.code, status.message);
      } else {
        T object;
        codec_internal::ReadValue(in, object);
        event.object = std::move(object);
        event.error = base::Error();
      }
      return {};
    } catch (const DecodeError& e) {
      in.Seek(start);
      in.SkipValue();
      std::string kind =
          as_status ? codec_internal::KindName<Status>::Get() : codec_internal::KindName<T>::Get();
      return codec_internal::DescribeFailure(e).Wrap("decoding " + kind).message;
    }
  }

  const std::function<bool(WatchEvent<T>&&)>& on_event_;
  std::string buffer_;
  bool stopped_ = false;
  base::Error error_;
};

}  // namespace kube
