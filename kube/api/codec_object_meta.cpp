#include "kube/api/codec.h"

namespace kube {

using codec_internal::PutIfNotEmpty;
using codec_internal::ReadField;

void from_json(const nlohmann::json& j, ObjectMeta& meta) {
  ReadField(j, "name", meta.name);
  ReadField(j, "namespace", meta.namespace_);
  ReadField(j, "uid", meta.uid);
  ReadField(j, "resourceVersion", meta.resource_version);
  ReadField(j, "creationTimestamp", meta.creation_timestamp);
  ReadField(j, "deletionTimestamp", meta.deletion_timestamp);
  ReadField(j, "labels", meta.labels);
  ReadField(j, "annotations", meta.annotations);
  meta.has_finalizers_field = ReadField(j, "finalizers", meta.finalizers);
}

void to_json(nlohmann::json& j, const ObjectMeta& meta) {
  j = nlohmann::json::object();
  PutIfNotEmpty(j, "name", meta.name);
  PutIfNotEmpty(j, "namespace", meta.namespace_);
  PutIfNotEmpty(j, "uid", meta.uid);
  PutIfNotEmpty(j, "resourceVersion", meta.resource_version);
  PutIfNotEmpty(j, "creationTimestamp", meta.creation_timestamp);
  PutIfNotEmpty(j, "deletionTimestamp", meta.deletion_timestamp);
  PutIfNotEmpty(j, "labels", meta.labels);
  PutIfNotEmpty(j, "annotations", meta.annotations);
  PutIfNotEmpty(j, "finalizers", meta.finalizers);
}

void from_json(const nlohmann::json& j, ListMeta& meta) {
  ReadField(j, "resourceVersion", meta.resource_version);
  ReadField(j, "continue", meta.continue_token);
  ReadField(j, "remainingItemCount", meta.remaining_item_count);
}

}  // namespace kube
