// The one compiled copy of the PersistentVolume codec (codec_extern.h).
#include "kube/api/core/v1/persistent_volume.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(PersistentVolume);
KUBE_INSTANTIATE_CODEC(ObjectList<PersistentVolume>);

}  // namespace kube
