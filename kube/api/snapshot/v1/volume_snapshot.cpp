// The one compiled copy of the VolumeSnapshot codec (codec_extern.h).
#include "kube/api/snapshot/v1/volume_snapshot.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(VolumeSnapshot);
KUBE_INSTANTIATE_CODEC(ObjectList<VolumeSnapshot>);

}  // namespace kube
