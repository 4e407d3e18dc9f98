// The one compiled copy of the PersistentVolumeClaim codec (codec_extern.h),
// and the claim's condition lookups.
#include "kube/api/core/v1/persistent_volume_claim.h"

#include <algorithm>

#include "kube/api/codec_instantiate.h"

namespace kube {

bool PersistentVolumeClaim::HasTrueCondition(std::string_view type) const {
  return std::ranges::any_of(status.conditions, [&](const PersistentVolumeClaimCondition& c) {
    return c.type == type && c.status == "True";
  });
}

const PersistentVolumeClaimCondition* PersistentVolumeClaim::FindCondition(
    std::string_view type) const {
  auto it = std::ranges::find(status.conditions, type, &PersistentVolumeClaimCondition::type);
  return it == status.conditions.end() ? nullptr : &*it;
}

KUBE_INSTANTIATE_CODEC(PersistentVolumeClaim);
KUBE_INSTANTIATE_CODEC(ObjectList<PersistentVolumeClaim>);

}  // namespace kube
