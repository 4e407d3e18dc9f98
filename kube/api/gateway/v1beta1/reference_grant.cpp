// The one compiled copy of the ReferenceGrant codec (codec_extern.h).
#include "kube/api/gateway/v1beta1/reference_grant.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(ReferenceGrant);
KUBE_INSTANTIATE_CODEC(ObjectList<ReferenceGrant>);

}  // namespace kube
