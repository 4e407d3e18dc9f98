#include "kube/api/codec.h"

namespace kube {

using codec_internal::PutIfNotEmpty;
using codec_internal::PutIfSet;
using codec_internal::ReadField;

void from_json(const nlohmann::json& j, VolumeAttachment& va) {
  ReadField(j, "metadata", va.metadata);
  ReadField(j, "spec", va.spec);
  ReadField(j, "status", va.status);
}

void to_json(nlohmann::json& j, const VolumeAttachment& va) {
  j = codec_internal::NewObjectJson<VolumeAttachment>();
  j["metadata"] = va.metadata;
  j["spec"] = va.spec;
  j["status"] = va.status;
}

void from_json(const nlohmann::json& j, VolumeAttachmentSpec& spec) {
  ReadField(j, "attacher", spec.attacher);
  ReadField(j, "nodeName", spec.node_name);
  ReadField(j, "source", spec.source);
}

void to_json(nlohmann::json& j, const VolumeAttachmentSpec& spec) {
  j = nlohmann::json::object();
  PutIfNotEmpty(j, "attacher", spec.attacher);
  PutIfNotEmpty(j, "nodeName", spec.node_name);
  j["source"] = spec.source;
}

void from_json(const nlohmann::json& j, VolumeAttachmentSource& source) {
  ReadField(j, "persistentVolumeName", source.persistent_volume_name);
  ReadField(j, "inlineVolumeSpec", source.inline_volume_spec);
}

void to_json(nlohmann::json& j, const VolumeAttachmentSource& source) {
  j = nlohmann::json::object();
  PutIfSet(j, "persistentVolumeName", source.persistent_volume_name);
  if (source.inline_volume_spec) j["inlineVolumeSpec"] = *source.inline_volume_spec;
}

void from_json(const nlohmann::json& j, VolumeAttachmentStatus& status) {
  ReadField(j, "attached", status.attached);
  ReadField(j, "attachmentMetadata", status.attachment_metadata);
  ReadField(j, "attachError", status.attach_error);
  ReadField(j, "detachError", status.detach_error);
}

// `attached` has no omitempty in the API: false is written, as Go does.
void to_json(nlohmann::json& j, const VolumeAttachmentStatus& status) {
  j = {{"attached", status.attached}};
  PutIfNotEmpty(j, "attachmentMetadata", status.attachment_metadata);
  PutIfSet(j, "attachError", status.attach_error);
  PutIfSet(j, "detachError", status.detach_error);
}

void from_json(const nlohmann::json& j, VolumeError& error) {
  ReadField(j, "time", error.time);
  ReadField(j, "message", error.message);
  ReadField(j, "errorCode", error.error_code);
}

void to_json(nlohmann::json& j, const VolumeError& error) {
  j = nlohmann::json::object();
  PutIfNotEmpty(j, "time", error.time);
  PutIfNotEmpty(j, "message", error.message);
  PutIfSet(j, "errorCode", error.error_code);
}

}  // namespace kube
