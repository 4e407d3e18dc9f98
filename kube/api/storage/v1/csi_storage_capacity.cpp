// The one compiled copy of the CSIStorageCapacity codec (codec_extern.h).
#include "kube/api/storage/v1/csi_storage_capacity.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(CSIStorageCapacity);
KUBE_INSTANTIATE_CODEC(ObjectList<CSIStorageCapacity>);

}  // namespace kube
