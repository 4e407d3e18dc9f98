// Which volume a VolumeAttachment is about, and its CSI source
// (BEHAVIOR.md §5.3 steps 1 and 3, §5.4): the spec of the PersistentVolume
// named by spec.source.persistentVolumeName, read from the PV cache, or the
// VA's own inlineVolumeSpec. Attach and detach resolve a VA the same way.
#pragma once

#include <memory>

#include "base/result.h"
#include "kube/persistent_volume.h"
#include "kube/store.h"
#include "kube/volume_attachment.h"

namespace attacher {

struct VolumeRef {
  std::shared_ptr<const kube::PersistentVolume> pv;  // null for an inline spec
  std::shared_ptr<const kube::PersistentVolumeSpec> spec;
};

// Errors: the VA names both or neither source (upstream's exact messages), or
// `persistentvolume "<name>" not found` when the PV is not in the cache.
base::Result<VolumeRef> VolumeOf(const kube::VolumeAttachment& va,
                                 const kube::Store<kube::PersistentVolume>& pvs);

// The CSI source of `spec`, or why there is none: no source, more than one
// (the API server forbids that, but a decoder must not pick one silently), an
// in-tree source (CSI migration is not supported yet), or another non-CSI one.
base::Result<const kube::CSIPersistentVolumeSource*> CsiSourceOf(
    const kube::PersistentVolumeSpec& spec);

}  // namespace attacher
