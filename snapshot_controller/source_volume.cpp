#include "snapshot_controller/source_volume.h"

#include <string>

#include "base/strconv.h"
#include "csi_params/volumes.h"

namespace snapshot_controller {
base::Result<kube::PersistentVolume> SourceVolumeOf(const kube::VolumeSnapshot& snapshot,
                                                    const Caches& caches, ControllerApi& api) {
  const auto& claim_name = snapshot.spec.source.persistent_volume_claim_name;
  if (!claim_name) return base::Error("the snapshot source PVC name is not specified");
  if (claim_name->empty()) {
    return base::Error("the PVC name is not specified in snapshot " + snapshot.metadata.namespace_ +
                       "/" + snapshot.metadata.name);
  }
  auto claim = caches.claims.Get(snapshot.metadata.namespace_, *claim_name);
  if (!claim) {
    return base::Error("failed to retrieve PVC " + *claim_name + " from the lister: " +
                       base::GoQuote("persistentvolumeclaim \"" + *claim_name + "\" not found"));
  }
  return VolumeOfClaim(*claim, "snapshot", caches, api);
}

base::Result<kube::PersistentVolume> VolumeOfClaim(const kube::PersistentVolumeClaim& claim,
                                                   std::string_view what, const Caches& caches,
                                                   ControllerApi& api) {
  if (claim.status.phase != "Bound") {
    return base::Error("the PVC " + claim.metadata.name +
                       " is not yet bound to a PV, will not "
                       "attempt to take a " +
                       std::string(what));
  }
  const std::string& volume_name = claim.spec.volume_name;
  kube::PersistentVolume volume;
  if (auto cached = caches.volumes.Get("", volume_name)) {
    volume = *cached;
  } else {
    auto read = api.GetVolume(volume_name);
    if (!read.ok()) {
      return base::Error("failed to retrieve PV " + volume_name +
                         " from the API server: " + base::GoQuote(read.error().message));
    }
    volume = std::move(*read);
  }
  if (!csi_params::IsVolumeBoundToClaim(volume, claim)) {
    return base::Error("claim in dataSource not bound or invalid");
  }
  return volume;
}

}  // namespace snapshot_controller
