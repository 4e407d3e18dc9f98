// Which volume a VolumeAttachment is about, and its CSI source
// (docs/attacher.md §5.3 steps 1 and 3, §5.4): the spec of the PersistentVolume
// named by spec.source.persistentVolumeName, read from the PV cache, or the
// VA's own inlineVolumeSpec. A PV with an in-tree source is translated to
// CSI (docs/migration.md §6); an inline spec is used as it is, since
// kube-controller-manager stores it translated. Attach, detach and the
// reconciler resolve a VA the same way.
#pragma once

#include <memory>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/store.h"

namespace attacher {

struct VolumeRef {
  std::shared_ptr<const kube::PersistentVolume> pv;  // null for an inline spec
  std::shared_ptr<const kube::PersistentVolumeSpec> spec;
};

// Errors: the VA names both or neither source (upstream's exact messages), or
// `persistentvolume "<name>" not found` when the PV is not in the cache.
base::Result<VolumeRef> VolumeOf(const kube::VolumeAttachment& va,
                                 const kube::Store<kube::PersistentVolume>& pvs);

// A volume as CSI sees it.
struct CsiVolume {
  // The spec to build requests from: translated for a migrated PV (access
  // modes and node affinity may differ from the PV's), else the original.
  std::shared_ptr<const kube::PersistentVolumeSpec> spec;
  const kube::CSIPersistentVolumeSource* source;  // points into *spec
  bool migrated = false;                          // translated from an in-tree PV source
};

// The CSI view of `volume`: a migratable PV (migration::IsPvMigratable) is
// translated first, without changing the cached PV. Errors: "failed to
// translate in tree pv to CSI: <why>", "inline volume spec contains nil CSI
// source" (upstream's text; an in-tree inline source is never translated
// here), or the PV spec has no source, more than one (the API server forbids
// that, but a decoder must not pick one silently), or a non-CSI one.
base::Result<CsiVolume> CsiVolumeOf(const VolumeRef& volume);

}  // namespace attacher
