// ProtobufWatchDecoder: the protobuf watch stream (Content-Type
// application/vnd.kubernetes.protobuf;stream=watch, docs/design.md §4.1),
// decoded as bytes arrive in arbitrary chunks. Each frame is a 4-byte
// big-endian length, then a metav1.WatchEvent {string type = 1,
// RawExtension object = 2 {bytes raw = 1}} whose raw bytes hold the object in
// its envelope (meta_v1.h). Same contract as the JSON WatchDecoder
// (watch_event.h): Feed returns false when the handler does or a frame does
// not decode, error() says why, an ERROR event carries the server's Status.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/decode_error.h"
#include "kube/api/proto/decode.h"
#include "kube/api/proto/fields.h"
#include "kube/api/watch_event.h"

namespace kube {

template <ProtobufKind T>
class ProtobufWatchDecoder {
 public:
  // A frame longer than this is refused instead of buffered: no object the
  // API server stores comes near it (etcd's request limit is 1.5 MiB).
  static constexpr uint32_t kMaxFrameBytes = 64u << 20;

  explicit ProtobufWatchDecoder(const std::function<bool(WatchEvent<T>&&)>& on_event)
      : on_event_(on_event) {}

  bool Feed(std::string_view chunk) {
    // Whole frames are decoded straight from the chunk; only a partial one is kept.
    std::string_view data = chunk;
    if (!pending_.empty()) {
      pending_.append(chunk);
      data = pending_;
    }
    size_t used = 0;
    bool keep_going = true;
    while (keep_going && data.size() - used >= 4) {
      auto byte = [&](size_t i) {
        return static_cast<uint32_t>(static_cast<uint8_t>(data[used + i]));
      };
      uint32_t length = byte(0) << 24 | byte(1) << 16 | byte(2) << 8 | byte(3);
      if (length > kMaxFrameBytes) {
        keep_going = Fail("frame of " + std::to_string(length) + " bytes exceeds the limit");
        break;
      }
      if (data.size() - used - 4 < length) break;
      keep_going = DecodeFrame(data.substr(used + 4, length));
      used += 4 + length;
    }
    stopped_ = !keep_going;
    if (pending_.empty()) {
      pending_.assign(data.substr(used));
    } else {
      pending_.erase(0, used);
    }
    return keep_going;
  }

  const base::Error& error() const { return error_; }
  // True when the stream ended in the middle of a frame (and not because
  // decoding stopped on purpose).
  bool HasPartialEvent() const { return !stopped_ && !pending_.empty(); }

 private:
  bool Fail(std::string message) {
    error_ = base::Error::Transport("decoding watch event: " + std::move(message));
    return false;
  }

  bool DecodeFrame(std::string_view frame) {
    WatchEvent<T> event;
    std::string_view type_text;
    std::string_view raw;
    bool has_type = false;
    bool has_object = false;
    try {
      proto::WireReader in(frame);
      auto type = [&](proto::WireReader& field, std::string_view& out) {
        out = field.ReadBytes();
        has_type = true;
      };
      auto object = [&](proto::WireReader& field, std::string_view& out) {
        proto::WireReader extension = field.ReadMessage();  // RawExtension {bytes raw = 1}
        proto::ReadFields(extension, proto::Bind(1, "raw", out));
        has_object = true;
      };
      proto::ReadFields(in, proto::Bind(1, "type", type_text, type),
                        proto::Bind(2, "object", raw, object));
      if (!has_type || !has_object) return Fail("missing type or object");
      if (!ParseWatchEventType(type_text, event.type)) {
        return Fail("unknown event type \"" + std::string(type_text) + "\"");
      }
      if (event.type == WatchEventType::kError) {
        Status status;
        WithParent("object", [&] {
          proto::ReadEnveloped(raw, Status::kFacts.api_version, Status::kFacts.kind, status);
        });
        event.error = base::Error::Http(status.code, status.message);
      } else {
        WithParent("object", [&] {
          proto::ReadEnveloped(raw, T::kFacts.api_version, T::kFacts.kind, event.object);
        });
      }
    } catch (const DecodeError& e) {
      return Fail(e.what());
    }
    return on_event_(std::move(event));
  }

  const std::function<bool(WatchEvent<T>&&)>& on_event_;
  std::string pending_;
  bool stopped_ = false;
  base::Error error_;
};

}  // namespace kube
