// The CSI view of a PV the provisioner deletes or compares (docs/provisioner.md
// §4.2, §3.13): its CSI source, or - for a PV of a migrated in-tree plugin -
// the CSI source its in-tree one translates to.
#pragma once

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/volume_sources.h"

namespace provisioner {

struct CsiView {
  kube::CSIPersistentVolumeSource source;
  bool migrated = false;  // translated from an in-tree source
};

// Errors: the translator's, or "invalid CSI PV" for a PV with neither kind
// of source (upstream's words).
base::Result<CsiView> CsiViewOf(const kube::PersistentVolume& pv);

}  // namespace provisioner
