// Protobuf decoder of storage/v1 VolumeAttachment (docs/design.md §4.1); field
// numbers are those of k8s.io/api's storage/v1/generated.proto.
#include <memory>

#include "kube/api/proto/core_v1.h"
#include "kube/api/proto/fields.h"
#include "kube/api/proto/meta_v1.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace kube {

using proto::Bind;
using proto::ReadFields;
using proto::WireReader;

// The messages below are read only inside this file; static, they stay
// visible to argument-dependent lookup from fields.h.

static void ReadProto(WireReader& in, VolumeAttachmentSource& source) {
  auto inline_spec = [](WireReader& field, std::shared_ptr<const PersistentVolumeSpec>& out) {
    auto spec = std::make_shared<PersistentVolumeSpec>();
    proto::ReadValue(field, *spec);
    out = std::move(spec);
  };
  ReadFields(in, Bind(1, "persistentVolumeName", source.persistent_volume_name),
             Bind(2, "inlineVolumeSpec", source.inline_volume_spec, inline_spec));
}

static void ReadProto(WireReader& in, VolumeAttachmentSpec& spec) {
  ReadFields(in, Bind(1, "attacher", spec.attacher), Bind(2, "source", spec.source),
             Bind(3, "nodeName", spec.node_name));
}

static void ReadProto(WireReader& in, VolumeError& error) {
  ReadFields(in, Bind(1, "time", error.time, proto::ReadTime), Bind(2, "message", error.message),
             Bind(3, "errorCode", error.error_code));
}

static void ReadProto(WireReader& in, VolumeAttachmentStatus& status) {
  ReadFields(in, Bind(1, "attached", status.attached),
             Bind(2, "attachmentMetadata", status.attachment_metadata),
             Bind(3, "attachError", status.attach_error),
             Bind(4, "detachError", status.detach_error));
}

void ReadProto(WireReader& in, VolumeAttachment& attachment) {
  ReadFields(in, Bind(1, "metadata", attachment.metadata), Bind(2, "spec", attachment.spec),
             Bind(3, "status", attachment.status));
}

}  // namespace kube
