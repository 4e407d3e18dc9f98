// The one compiled copy of the Event codec (codec_extern.h).
#include "kube/api/core/v1/event.h"

#include "kube/api/codec_instantiate.h"

namespace kube {

KUBE_INSTANTIATE_CODEC(Event);
KUBE_INSTANTIATE_CODEC(ObjectList<Event>);

}  // namespace kube
