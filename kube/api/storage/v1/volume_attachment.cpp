// The one compiled copy of the VolumeAttachment codec (codec_extern.h).
#include "kube/api/storage/v1/volume_attachment.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(VolumeAttachment);
KUBE_INSTANTIATE_CODEC(ObjectList<VolumeAttachment>);

}  // namespace kube
