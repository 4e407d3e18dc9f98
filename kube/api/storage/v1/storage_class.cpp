// The one compiled copy of the StorageClass codec (codec_extern.h).
#include "kube/api/storage/v1/storage_class.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(StorageClass);
KUBE_INSTANTIATE_CODEC(ObjectList<StorageClass>);

}  // namespace kube
