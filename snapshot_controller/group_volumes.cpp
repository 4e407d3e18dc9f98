#include "snapshot_controller/group_volumes.h"

#include <string>

#include "base/strconv.h"
#include "kube/api/label_selector.h"
#include "snapshot_controller/source_volume.h"

namespace snapshot_controller {

base::Result<std::vector<kube::PersistentVolume>> GroupVolumesOf(
    const kube::VolumeGroupSnapshot& group, const Caches& caches, ControllerApi& api) {
  const kube::LabelSelector selector = group.spec.source.selector.value_or(kube::LabelSelector{});
  const std::string formatted = kube::FormatLabelSelector(selector);
  auto claims = api.ListClaims(group.metadata.namespace_, kube::MatchLabelsQuery(selector));
  if (!claims.ok()) {
    return base::Error("failed to list PVCs with label selector " + formatted + ": " +
                       base::GoQuote(claims.error().message));
  }
  if (claims->empty()) {
    return base::Error("label selector " + formatted +
                       " for group snapshot not applied to any PVC");
  }
  std::vector<kube::PersistentVolume> volumes;
  for (const kube::PersistentVolumeClaim& claim : *claims) {
    auto volume = VolumeOfClaim(claim, "group snapshot", caches, api);
    if (!volume.ok()) return volume.error();
    volumes.push_back(std::move(*volume));
  }
  return volumes;
}

}  // namespace snapshot_controller
