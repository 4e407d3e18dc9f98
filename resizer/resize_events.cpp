#include "resizer/resize_events.h"

namespace resizer {

kube::ObjectReference RecordedResizeEvents::ReferenceTo(const kube::PersistentVolumeClaim& claim) {
  return {.kind = kube::InternedString(kube::PersistentVolumeClaim::kFacts.kind),
          .namespace_ = claim.metadata.namespace_,
          .name = claim.metadata.name,
          .uid = claim.metadata.uid,
          .api_version = kube::InternedString(kube::PersistentVolumeClaim::kFacts.api_version),
          .resource_version = claim.metadata.resource_version};
}

}  // namespace resizer
