// The one compiled copy of the Node codec (codec_extern.h).
#include "kube/api/core/v1/node.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(Node);
KUBE_INSTANTIATE_CODEC(ObjectList<Node>);

}  // namespace kube
