#include "kube/api/codec.h"

namespace kube {

using codec_internal::PutIfNonZero;
using codec_internal::PutIfNotEmpty;
using codec_internal::ReadField;

void from_json(const nlohmann::json& j, Event& event) {
  ReadField(j, "metadata", event.metadata);
  ReadField(j, "involvedObject", event.involved_object);
  ReadField(j, "reason", event.reason);
  ReadField(j, "message", event.message);
  ReadField(j, "type", event.type);
  ReadField(j, "count", event.count);
  ReadField(j, "firstTimestamp", event.first_timestamp);
  ReadField(j, "lastTimestamp", event.last_timestamp);
  ReadField(j, "source", event.source);
  ReadField(j, "reportingComponent", event.reporting_component);
  ReadField(j, "reportingInstance", event.reporting_instance);
}

void to_json(nlohmann::json& j, const Event& event) {
  j = codec_internal::NewObjectJson<Event>();
  j["metadata"] = event.metadata;
  j["involvedObject"] = event.involved_object;
  PutIfNotEmpty(j, "reason", event.reason);
  PutIfNotEmpty(j, "message", event.message);
  PutIfNotEmpty(j, "type", event.type);
  PutIfNonZero(j, "count", event.count);
  PutIfNotEmpty(j, "firstTimestamp", event.first_timestamp);
  PutIfNotEmpty(j, "lastTimestamp", event.last_timestamp);
  j["source"] = event.source;
  PutIfNotEmpty(j, "reportingComponent", event.reporting_component);
  PutIfNotEmpty(j, "reportingInstance", event.reporting_instance);
}

void from_json(const nlohmann::json& j, ObjectReference& ref) {
  ReadField(j, "kind", ref.kind);
  ReadField(j, "namespace", ref.namespace_);
  ReadField(j, "name", ref.name);
  ReadField(j, "uid", ref.uid);
  ReadField(j, "apiVersion", ref.api_version);
  ReadField(j, "resourceVersion", ref.resource_version);
}

void to_json(nlohmann::json& j, const ObjectReference& ref) {
  j = nlohmann::json::object();
  PutIfNotEmpty(j, "kind", ref.kind);
  PutIfNotEmpty(j, "namespace", ref.namespace_);
  PutIfNotEmpty(j, "name", ref.name);
  PutIfNotEmpty(j, "uid", ref.uid);
  PutIfNotEmpty(j, "apiVersion", ref.api_version);
  PutIfNotEmpty(j, "resourceVersion", ref.resource_version);
}

void from_json(const nlohmann::json& j, EventSource& source) {
  ReadField(j, "component", source.component);
  ReadField(j, "host", source.host);
}

void to_json(nlohmann::json& j, const EventSource& source) {
  j = nlohmann::json::object();
  PutIfNotEmpty(j, "component", source.component);
  PutIfNotEmpty(j, "host", source.host);
}

}  // namespace kube
