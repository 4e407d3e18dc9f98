// WatchStreamDecoder: a watch response decoded by its Content-Type - the
// protobuf stream (proto/watch_decoder.h) for kinds with a protobuf decoder
// when the server chose it, newline-delimited JSON (watch_event.h) otherwise.
// kWatchAccept is what a watch of the kind asks for (docs/design.md §4.1).
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "base/result.h"
#include "kube/api/proto/watch_decoder.h"
#include "kube/api/watch_event.h"

namespace kube {

inline constexpr std::string_view kProtobufContentType = "application/vnd.kubernetes.protobuf";

namespace watch_internal {
struct NoProtobuf {};
template <class T>
struct ProtobufSlot {
  using type = NoProtobuf;
};
template <ProtobufKind T>
struct ProtobufSlot<T> {
  using type = std::optional<ProtobufWatchDecoder<T>>;
};
}  // namespace watch_internal

template <class T>
class WatchStreamDecoder {
 public:
  static constexpr std::string_view kWatchAccept = kAcceptFor<T>;

  explicit WatchStreamDecoder(const std::function<bool(WatchEvent<T>&&)>& on_event)
      : json_(on_event) {
    if constexpr (ProtobufKind<T>) on_event_ = &on_event;
  }

  // Called with the answer's Content-Type before the first Feed.
  void SetContentType(std::string_view content_type) {
    if constexpr (ProtobufKind<T>) {
      if (content_type.starts_with(kProtobufContentType)) protobuf_.emplace(*on_event_);
    }
  }

  bool Feed(std::string_view chunk) {
    if constexpr (ProtobufKind<T>) {
      if (protobuf_) return protobuf_->Feed(chunk);
    }
    return json_.Feed(chunk);
  }

  const base::Error& error() const {
    if constexpr (ProtobufKind<T>) {
      if (protobuf_) return protobuf_->error();
    }
    return json_.error();
  }

  bool HasPartialEvent() const {
    if constexpr (ProtobufKind<T>) {
      if (protobuf_) return protobuf_->HasPartialEvent();
    }
    return json_.HasPartialEvent();
  }

 private:
  WatchDecoder<T> json_;
  const std::function<bool(WatchEvent<T>&&)>* on_event_ = nullptr;
  typename watch_internal::ProtobufSlot<T>::type protobuf_;
};

}  // namespace kube
