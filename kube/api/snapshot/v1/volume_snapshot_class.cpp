// The one compiled copy of the VolumeSnapshotClass codec (codec_extern.h).
#include "kube/api/snapshot/v1/volume_snapshot_class.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(VolumeSnapshotClass);
KUBE_INSTANTIATE_CODEC(ObjectList<VolumeSnapshotClass>);

}  // namespace kube
