// VolumeAttachment (storage.k8s.io/v1): the object the attacher reconciles.
// Holds spec and status in full (they are small) and the metadata subset of
// ObjectMeta. An inline volume spec is rare and large, so it sits behind an
// immutable shared pointer: copies of a VolumeAttachment share it, and
// equality compares what it points to. The attach and detach errors are empty
// in nearly every cached object, so they sit on the heap too (HeapOptional).
// Every cached object repeats the same driver and a few node names, so those
// are interned (InternedString: one pointer each).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "kube/api/codec_extern.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/field.h"
#include "kube/api/heap_optional.h"
#include "kube/api/interned_string.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"
#include "kube/api/string_map.h"

namespace kube {

namespace proto {
class WireReader;
}  // namespace proto

struct VolumeAttachmentSource {
  std::optional<std::string> persistent_volume_name;
  std::shared_ptr<const PersistentVolumeSpec> inline_volume_spec;  // null = absent

  friend bool operator==(const VolumeAttachmentSource& a, const VolumeAttachmentSource& b) {
    if (a.persistent_volume_name != b.persistent_volume_name) return false;
    if (!a.inline_volume_spec || !b.inline_volume_spec) {
      return a.inline_volume_spec == b.inline_volume_spec;
    }
    return *a.inline_volume_spec == *b.inline_volume_spec;
  }

  static constexpr auto Fields() {
    return std::tuple{
        Field("persistentVolumeName", &VolumeAttachmentSource::persistent_volume_name),
        Field("inlineVolumeSpec", &VolumeAttachmentSource::inline_volume_spec),
    };
  }
};

struct VolumeAttachmentSpec {
  InternedString attacher;
  InternedString node_name;
  VolumeAttachmentSource source;

  bool operator==(const VolumeAttachmentSpec&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("attacher", &VolumeAttachmentSpec::attacher),
        Field("nodeName", &VolumeAttachmentSpec::node_name),
        Field("source", &VolumeAttachmentSpec::source),
    };
  }
};

struct VolumeError {
  std::string time;  // RFC 3339
  std::string message;
  std::optional<int32_t> error_code;  // gRPC code of a failed attach

  bool operator==(const VolumeError&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("time", &VolumeError::time),
        Field("message", &VolumeError::message),
        Field("errorCode", &VolumeError::error_code),
    };
  }
};

struct VolumeAttachmentStatus {
  bool attached = false;
  StringMap attachment_metadata;
  HeapOptional<VolumeError> attach_error;
  HeapOptional<VolumeError> detach_error;

  bool operator==(const VolumeAttachmentStatus&) const = default;

  // `attached` has no omitempty in the API: false is written, as Go does.
  static constexpr auto Fields() {
    return std::tuple{
        Field("attached", &VolumeAttachmentStatus::attached, Emit::kAlways),
        Field("attachmentMetadata", &VolumeAttachmentStatus::attachment_metadata),
        Field("attachError", &VolumeAttachmentStatus::attach_error),
        Field("detachError", &VolumeAttachmentStatus::detach_error),
    };
  }
};

struct VolumeAttachment {
  static constexpr KindFacts kFacts{.api_version = "storage.k8s.io/v1",
                                    .kind = "VolumeAttachment",
                                    .plural = "volumeattachments",
                                    .scope = Scope::kCluster,
                                    .status_subresource = true};

  ObjectMeta metadata;
  VolumeAttachmentSpec spec;
  VolumeAttachmentStatus status;

  bool operator==(const VolumeAttachment&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &VolumeAttachment::metadata),
        Field("spec", &VolumeAttachment::spec),
        Field("status", &VolumeAttachment::status),
    };
  }
};

// Watches of this kind travel as protobuf (docs/design.md §4.1); the
// decoder is in kube/api/proto/storage_v1.cpp.
void ReadProto(proto::WireReader& in, VolumeAttachment& object);

KUBE_EXTERN_CODEC(VolumeAttachment);
KUBE_EXTERN_CODEC(ObjectList<VolumeAttachment>);

}  // namespace kube
