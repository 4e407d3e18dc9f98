#include "resizer/resize_events.h"

namespace resizer {

kube::ObjectReference RecordedResizeEvents::ReferenceTo(const ResizeClaim& claim) {
  return {.kind = kube::InternedString(ResizeClaim::kFacts.kind),
          .namespace_ = claim.metadata.namespace_,
          .name = claim.metadata.name,
          .uid = claim.metadata.uid,
          .api_version = kube::InternedString(ResizeClaim::kFacts.api_version),
          .resource_version = claim.metadata.resource_version};
}

}  // namespace resizer
