// The one compiled copy of the VolumeGroupSnapshot codec (codec_extern.h).
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(VolumeGroupSnapshot);
KUBE_INSTANTIATE_CODEC(ObjectList<VolumeGroupSnapshot>);

}  // namespace kube
