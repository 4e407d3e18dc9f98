// The one compiled copy of the VolumeGroupSnapshotClass codec (codec_extern.h).
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(VolumeGroupSnapshotClass);
KUBE_INSTANTIATE_CODEC(ObjectList<VolumeGroupSnapshotClass>);

}  // namespace kube
