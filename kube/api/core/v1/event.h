// Event (core/v1, the form `kubectl describe` shows): written by
// EventRecorder for attach/detach failures, whose repeats PATCH `count` and
// `lastTimestamp` rather than read the Event back. Timestamps are RFC 3339
// strings with second precision.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/interned_string.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"
#include "kube/api/uid.h"

namespace kube {

struct ObjectReference {
  InternedString kind;  // interned: a few kinds, repeated in every cached reference
  std::string namespace_;
  std::string name;
  Uid uid;
  InternedString api_version;
  std::string resource_version;

  bool operator==(const ObjectReference&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("kind", &ObjectReference::kind),
        Field("namespace", &ObjectReference::namespace_),
        Field("name", &ObjectReference::name),
        Field("uid", &ObjectReference::uid),
        Field("apiVersion", &ObjectReference::api_version),
        Field("resourceVersion", &ObjectReference::resource_version),
    };
  }
};

// The reference naming `object` of any kind, e.g. as an Event's involvedObject.
template <HasKindFacts T>
ObjectReference ReferenceTo(const T& object) {
  ObjectReference ref;
  ref.kind = std::string(T::kFacts.kind);
  ref.namespace_ = object.metadata.namespace_;
  ref.name = object.metadata.name;
  ref.uid = object.metadata.uid;
  ref.api_version = std::string(T::kFacts.api_version);
  ref.resource_version = object.metadata.resource_version;
  return ref;
}

struct EventSource {
  std::string component;
  std::string host;

  bool operator==(const EventSource&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("component", &EventSource::component),
        Field("host", &EventSource::host),
    };
  }
};

struct Event {
  static constexpr KindFacts kFacts{
      .api_version = "v1", .kind = "Event", .plural = "events", .scope = Scope::kNamespaced};

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

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &Event::metadata),
        Field("involvedObject", &Event::involved_object),
        Field("reason", &Event::reason),
        Field("message", &Event::message),
        Field("type", &Event::type),
        Field("count", &Event::count),
        Field("firstTimestamp", &Event::first_timestamp),
        Field("lastTimestamp", &Event::last_timestamp),
        Field("source", &Event::source),
        Field("reportingComponent", &Event::reporting_component),
        Field("reportingInstance", &Event::reporting_instance),
    };
  }
};

KUBE_EXTERN_CODEC(Event);
KUBE_EXTERN_CODEC(ObjectList<Event>);

}  // namespace kube
