// Protobuf decoders of the core/v1 parts the caches hold (docs/design.md
// §4.1): PersistentVolume and its spec, which VolumeAttachment also embeds as
// an inline volume spec. Field numbers are those of k8s.io/api's
// core/v1/generated.proto.
#pragma once

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/proto/wire_reader.h"

namespace kube {

void ReadProto(proto::WireReader& in, PersistentVolumeSpec& spec);
void ReadProto(proto::WireReader& in, PersistentVolume& volume);

}  // namespace kube
