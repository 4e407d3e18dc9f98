// JSON codecs for the typed API objects. The Result-returning functions are
// the boundary: they never throw, and a failure reads
// "decoding <Kind>: <field path>: <problem>", e.g.
// "decoding VolumeAttachment: spec.attacher: type must be string, but is number".
// Unknown fields are ignored; missing or null fields decode to empty values.
// Encoding writes apiVersion and kind for top-level kinds and leaves empty
// fields out (Go's omitempty), so CreateMergePatch(json(old), json(new))
// yields the patch Go would compute for the fields these structs hold.
// Encoding is not lossless for what decoding dropped (unknown fields, the body
// of an OtherVolumeSource, extra volume sources).
#pragma once

#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/codec_fields.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/core/v1/event.h"
#include "kube/api/coordination/v1/lease.h"
#include "kube/api/object_list.h"
#include "kube/api/object_meta.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/secret.h"
#include "kube/api/status.h"
#include "kube/api/string_map.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace kube {

// nlohmann ADL hooks, so `nlohmann::json(object)` and `json.get<T>()` work.
// from_json throws on a wrong field type; prefer ObjectFromJson below.
void to_json(nlohmann::json& j, const StringMap& map);

void from_json(const nlohmann::json& j, ObjectMeta& meta);
void to_json(nlohmann::json& j, const ObjectMeta& meta);
void from_json(const nlohmann::json& j, ListMeta& meta);

void from_json(const nlohmann::json& j, VolumeAttachment& va);
void to_json(nlohmann::json& j, const VolumeAttachment& va);
void from_json(const nlohmann::json& j, VolumeAttachmentSpec& spec);
void to_json(nlohmann::json& j, const VolumeAttachmentSpec& spec);
void from_json(const nlohmann::json& j, VolumeAttachmentSource& source);
void to_json(nlohmann::json& j, const VolumeAttachmentSource& source);
void from_json(const nlohmann::json& j, VolumeAttachmentStatus& status);
void to_json(nlohmann::json& j, const VolumeAttachmentStatus& status);
void from_json(const nlohmann::json& j, VolumeError& error);
void to_json(nlohmann::json& j, const VolumeError& error);

void from_json(const nlohmann::json& j, PersistentVolume& pv);
void to_json(nlohmann::json& j, const PersistentVolume& pv);
void from_json(const nlohmann::json& j, PersistentVolumeSpec& spec);
void to_json(nlohmann::json& j, const PersistentVolumeSpec& spec);
void from_json(const nlohmann::json& j, ClaimReference& ref);
void to_json(nlohmann::json& j, const ClaimReference& ref);
void from_json(const nlohmann::json& j, NodeSelectorTerm& term);
void to_json(nlohmann::json& j, const NodeSelectorTerm& term);
void from_json(const nlohmann::json& j, NodeSelectorRequirement& requirement);
void to_json(nlohmann::json& j, const NodeSelectorRequirement& requirement);
void from_json(const nlohmann::json& j, SecretReference& ref);
void to_json(nlohmann::json& j, const SecretReference& ref);
void from_json(const nlohmann::json& j, CSIPersistentVolumeSource& source);
void to_json(nlohmann::json& j, const CSIPersistentVolumeSource& source);
void from_json(const nlohmann::json& j, GCEPersistentDiskVolumeSource& source);
void to_json(nlohmann::json& j, const GCEPersistentDiskVolumeSource& source);
void from_json(const nlohmann::json& j, AWSElasticBlockStoreVolumeSource& source);
void to_json(nlohmann::json& j, const AWSElasticBlockStoreVolumeSource& source);
void from_json(const nlohmann::json& j, CinderPersistentVolumeSource& source);
void to_json(nlohmann::json& j, const CinderPersistentVolumeSource& source);
void from_json(const nlohmann::json& j, AzureDiskVolumeSource& source);
void to_json(nlohmann::json& j, const AzureDiskVolumeSource& source);
void from_json(const nlohmann::json& j, AzureFilePersistentVolumeSource& source);
void to_json(nlohmann::json& j, const AzureFilePersistentVolumeSource& source);
void from_json(const nlohmann::json& j, VsphereVirtualDiskVolumeSource& source);
void to_json(nlohmann::json& j, const VsphereVirtualDiskVolumeSource& source);
void from_json(const nlohmann::json& j, PortworxVolumeSource& source);
void to_json(nlohmann::json& j, const PortworxVolumeSource& source);

void from_json(const nlohmann::json& j, CSINode& node);
void to_json(nlohmann::json& j, const CSINode& node);
void from_json(const nlohmann::json& j, CSINodeDriver& driver);
void to_json(nlohmann::json& j, const CSINodeDriver& driver);

void from_json(const nlohmann::json& j, Secret& secret);
void to_json(nlohmann::json& j, const Secret& secret);

void from_json(const nlohmann::json& j, Lease& lease);
void to_json(nlohmann::json& j, const Lease& lease);
void from_json(const nlohmann::json& j, LeaseSpec& spec);
void to_json(nlohmann::json& j, const LeaseSpec& spec);

void from_json(const nlohmann::json& j, Event& event);
void to_json(nlohmann::json& j, const Event& event);
void from_json(const nlohmann::json& j, ObjectReference& ref);
void to_json(nlohmann::json& j, const ObjectReference& ref);
void from_json(const nlohmann::json& j, EventSource& source);
void to_json(nlohmann::json& j, const EventSource& source);

void from_json(const nlohmann::json& j, Status& status);
void to_json(nlohmann::json& j, const Status& status);

template <class T>
void from_json(const nlohmann::json& j, ObjectList<T>& list) {
  codec_internal::ReadField(j, "metadata", list.metadata);
  codec_internal::ReadField(j, "items", list.items);
}

namespace codec_internal {

// The kind named in error messages; a list is "<Kind>List", as in the API.
template <class T>
struct KindName {
  static std::string Get() { return std::string(T::kKind); }
};
template <class T>
struct KindName<ObjectList<T>> {
  static std::string Get() { return std::string(T::kKind) + "List"; }
};

// Parses `text` into `doc`; the error is nlohmann's description of the syntax error.
base::Status Parse(std::string_view text, nlohmann::json& doc);
// The message of an exception thrown by a decoder, without nlohmann's "[json.exception...]" tag.
base::Error DescribeFailure(const std::exception& e);

}  // namespace codec_internal

// Decodes an already parsed object, e.g. the `object` member of a watch event.
template <class T>
base::Result<T> ObjectFromJson(const nlohmann::json& j) {
  try {
    T object;
    codec_internal::DecodeValue(j, object);
    return object;
  } catch (const std::exception& e) {
    return codec_internal::DescribeFailure(e).Wrap("decoding " +
                                                   codec_internal::KindName<T>::Get());
  }
}

template <class T>
base::Result<T> DecodeObject(std::string_view json) {
  nlohmann::json doc;
  if (auto parsed = codec_internal::Parse(json, doc); !parsed.ok()) {
    return parsed.error().Wrap("decoding " + codec_internal::KindName<T>::Get());
  }
  return ObjectFromJson<T>(doc);
}

template <class T>
base::Result<ObjectList<T>> DecodeList(std::string_view json) {
  return DecodeObject<ObjectList<T>>(json);
}

template <class T>
std::string EncodeObject(const T& object) {
  return nlohmann::json(object).dump();
}

inline base::Result<Status> DecodeStatus(std::string_view json) {
  return DecodeObject<Status>(json);
}

inline base::Result<Status> StatusFromJson(const nlohmann::json& j) {
  return ObjectFromJson<Status>(j);
}

}  // namespace kube
