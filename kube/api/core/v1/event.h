// Event (core/v1, the form `kubectl describe` shows): written by
// EventRecorder for attach/detach failures, whose repeats PATCH `count` and
// `lastTimestamp` rather than read the Event back. Timestamps are RFC 3339
// strings with second precision.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "kube/api/object_meta.h"

namespace kube {

struct ObjectReference {
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string api_version;
  std::string resource_version;

  bool operator==(const ObjectReference&) const = default;
};

struct EventSource {
  std::string component;
  std::string host;

  bool operator==(const EventSource&) const = default;
};

struct Event {
  static constexpr std::string_view kKind = "Event";
  static constexpr std::string_view kApiVersion = "v1";

  ObjectMeta metadata;
  ObjectReference involved_object;
  std::string reason;
  std::string message;
  std::string type;  // "Normal" or "Warning"
  int32_t count = 0;
  std::string first_timestamp;
  std::string last_timestamp;
  EventSource source;
  std::string reporting_component;
  std::string reporting_instance;

  bool operator==(const Event&) const = default;
};

}  // namespace kube
