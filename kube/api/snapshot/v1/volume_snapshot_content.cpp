// The one compiled copy of the VolumeSnapshotContent codec (codec_extern.h).
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(VolumeSnapshotContent);
KUBE_INSTANTIATE_CODEC(ObjectList<VolumeSnapshotContent>);

}  // namespace kube
