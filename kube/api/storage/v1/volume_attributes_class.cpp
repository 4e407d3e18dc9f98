// The one compiled copy of the VolumeAttributesClass codec (codec_extern.h).
#include "kube/api/storage/v1/volume_attributes_class.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(VolumeAttributesClass);
KUBE_INSTANTIATE_CODEC(ObjectList<VolumeAttributesClass>);

}  // namespace kube
