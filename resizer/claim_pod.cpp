#include "resizer/claim_pod.h"

#include <algorithm>

namespace resizer {

bool ClaimPod::UsesClaim(std::string_view name) const {
  return std::ranges::any_of(spec.volumes,
                             [&](const ClaimPodVolume& v) { return v.claim_name == name; });
}

}  // namespace resizer
