// The one compiled copy of the Status codec (codec_extern.h).
#include "kube/api/status.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(Status);

}  // namespace kube
