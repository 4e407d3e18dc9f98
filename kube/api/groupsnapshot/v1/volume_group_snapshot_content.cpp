// The one compiled copy of the VolumeGroupSnapshotContent codec (codec_extern.h).
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(VolumeGroupSnapshotContent);
KUBE_INSTANTIATE_CODEC(ObjectList<VolumeGroupSnapshotContent>);

}  // namespace kube
