// The one compiled copy of the Lease codec (codec_extern.h).
#include "kube/api/coordination/v1/lease.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(Lease);
KUBE_INSTANTIATE_CODEC(ObjectList<Lease>);

}  // namespace kube
