// The parameters of CreateSnapshot and CreateVolumeGroupSnapshot
// (docs/snapshots.md §3.4 create steps 4 and 5, §3.8): the class parameters
// without the reserved keys upstream knows, plus, with
// --extra-create-metadata, the names of the (group) snapshot and its content.
#pragma once

#include <array>
#include <map>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/api/string_map.h"
#include "snapshot/names.h"

namespace snapshotter {

// The reserved class parameter keys upstream knows, those of the snapshot
// classes (snapshot/names.h): dropped from the parameters (§3.4 create
// step 4).
inline constexpr std::array<std::string_view, 8> kKnownReservedParameterKeys = {
    snapshot::kSnapshotterSecretNameKey,
    snapshot::kSnapshotterSecretNamespaceKey,
    snapshot::kListSecretNameKey,
    snapshot::kListSecretNamespaceKey,
    snapshot::kGroupSnapshotterSecretNameKey,
    snapshot::kGroupSnapshotterSecretNamespaceKey,
    snapshot::kGroupSnapshotterGetSecretNameKey,
    snapshot::kGroupSnapshotterGetSecretNamespaceKey,
};

// Any other key under csi.storage.k8s.io/ is the error "failed to remove CSI
// Parameters of prefixed keys: found unknown parameter key "<key>" with
// reserved namespace csi.storage.k8s.io/" (the first such key in order).
base::Result<std::map<std::string, std::string>> CreateParameters(
    const kube::StringMap& class_parameters, const kube::VolumeSnapshotContent& content,
    bool extra_create_metadata);
// The same for a group, whose metadata keys are
// csi.storage.k8s.io/volumegroupsnapshot/{name,namespace} and
// csi.storage.k8s.io/volumegroupsnapshotcontent/name.
base::Result<std::map<std::string, std::string>> CreateParameters(
    const kube::StringMap& class_parameters, const kube::VolumeGroupSnapshotContent& content,
    bool extra_create_metadata);

}  // namespace snapshotter
