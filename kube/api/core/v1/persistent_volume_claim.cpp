// The one compiled copy of the PersistentVolumeClaim codec (codec_extern.h).
#include "kube/api/core/v1/persistent_volume_claim.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(PersistentVolumeClaim);
KUBE_INSTANTIATE_CODEC(ObjectList<PersistentVolumeClaim>);

}  // namespace kube
