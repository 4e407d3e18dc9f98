// The one compiled copy of the CSINode codec (codec_extern.h).
#include "kube/api/storage/v1/csi_node.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(CSINode);
KUBE_INSTANTIATE_CODEC(ObjectList<CSINode>);

}  // namespace kube
