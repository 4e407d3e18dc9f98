// BoundClaim: a PersistentVolumeClaim Bound to a PersistentVolume of the
// benchmark's CSI driver (the PV's claimRef by the claim's UID), as the PV
// binder leaves them. No kube-controller-manager runs, so the bench writes
// both statuses itself, through the admin client. The snapshot stack's
// source claims and the resize stack's claims.
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/client/client.h"

namespace bench {

struct BoundClaimSpec {
  std::string ns;
  std::string name;                // the claim's and its PV's
  std::string handle;              // the PV's CSI volume handle
  std::string storage_class = {};  // the claim's and the PV's; "": static binding, no class
  std::string size = "1Gi";        // the claim's request and the PV's capacity
  // The claim's status.capacity too, as the binder writes it (what a resizer
  // compares the request with).
  bool capacity_in_status = false;
  // The annotations the PV binder leaves on a claim it bound (bind-completed,
  // bound-by-controller) and on its PV (bound-by-controller). Without them a
  // running kube-controller-manager binds every pair again, one claim and PV
  // update each, about ten a second on the shared machine: 20,000 pairs took
  // it half an hour of API server load, on whichever contender ran first.
  bool binder_annotations = false;
};

// The PV of `spec`, its claimRef naming the claim of UID `claim_uid` ("" for
// a claim not created).
kube::PersistentVolume BoundVolume(const BoundClaimSpec& spec, const std::string& claim_uid);

base::Status CreateBoundClaim(kube::Client& admin, const BoundClaimSpec& spec);

}  // namespace bench
