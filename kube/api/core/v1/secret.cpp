// The one compiled copy of the Secret codec (codec_extern.h).
#include "kube/api/core/v1/secret.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(Secret);
KUBE_INSTANTIATE_CODEC(ObjectList<Secret>);

}  // namespace kube
