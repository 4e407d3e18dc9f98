// The parameters of CreateSnapshot (docs/snapshots.md §3.4 create steps 4
// and 5): the class parameters without the reserved keys upstream knows,
// plus, with --extra-create-metadata, the names of the VolumeSnapshot and
// the content.
#pragma once

#include <map>
#include <string>

#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/api/string_map.h"

namespace snapshotter {

// Any other key under csi.storage.k8s.io/ is the error "failed to remove CSI
// Parameters of prefixed keys: found unknown parameter key "<key>" with
// reserved namespace csi.storage.k8s.io/" (the first such key in order).
base::Result<std::map<std::string, std::string>> CreateParameters(
    const kube::StringMap& class_parameters, const kube::VolumeSnapshotContent& content,
    bool extra_create_metadata);

}  // namespace snapshotter
