// Protobuf decoder of storage/v1 VolumeAttachment (docs/design.md §4.1); field
// numbers are those of k8s.io/api's storage/v1/generated.proto.
#include <memory>

#include "kube/api/proto/core_v1.h"
#include "kube/api/proto/meta_v1.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace kube {
namespace {

using proto::ReadString;
using proto::WireReader;

void ReadSource(WireReader& in, VolumeAttachmentSource& source) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, source.persistent_volume_name);
        break;
      case 2: {
        auto spec = std::make_shared<PersistentVolumeSpec>();
        proto::ReadNested(in, "inlineVolumeSpec", *spec);
        source.inline_volume_spec = std::move(spec);
        break;
      }
      default:
        in.Skip();
    }
  }
}

void ReadSpec(WireReader& in, VolumeAttachmentSpec& spec) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, spec.attacher);
        break;
      case 2: {
        WireReader source = in.ReadMessage();
        WithParent("source", [&] { ReadSource(source, spec.source); });
        break;
      }
      case 3:
        ReadString(in, spec.node_name);
        break;
      default:
        in.Skip();
    }
  }
}

void ReadVolumeError(WireReader& in, HeapOptional<VolumeError>& error) {
  WireReader message = in.ReadMessage();
  if (!error) error.emplace();
  while (message.Next()) {
    switch (message.field()) {
      case 1:
        WithParent("time", [&] { error->time = proto::ReadTime(message); });
        break;
      case 2:
        ReadString(message, error->message);
        break;
      case 3:
        error->error_code = message.ReadInt32();
        break;
      default:
        message.Skip();
    }
  }
}

void ReadStatus(WireReader& in, VolumeAttachmentStatus& status) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        status.attached = in.ReadBool();
        break;
      case 2:
        proto::ReadStringMapEntry(in, status.attachment_metadata);
        break;
      case 3:
        WithParent("attachError", [&] { ReadVolumeError(in, status.attach_error); });
        break;
      case 4:
        WithParent("detachError", [&] { ReadVolumeError(in, status.detach_error); });
        break;
      default:
        in.Skip();
    }
  }
}

}  // namespace

void ReadProto(WireReader& in, VolumeAttachment& attachment) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        proto::ReadNested(in, "metadata", attachment.metadata);
        break;
      case 2: {
        WireReader spec = in.ReadMessage();
        WithParent("spec", [&] { ReadSpec(spec, attachment.spec); });
        break;
      }
      case 3: {
        WireReader status = in.ReadMessage();
        WithParent("status", [&] { ReadStatus(status, attachment.status); });
        break;
      }
      default:
        in.Skip();
    }
  }
}

}  // namespace kube
