// Which Secret holds the credentials of a new content's create and delete
// calls, as the controller resolves it from the class (docs/snapshots.md
// §3.5, §4.3 createSnapshotContent, §4.7) and records it in the content's
// deletion-secret annotations. Only references are resolved here; error
// texts are upstream's, because they end up in status.error and Events.
#pragma once

#include <optional>
#include <string_view>

#include "base/result.h"
#include "kube/api/core/v1/volume_sources.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/string_map.h"

namespace snapshot_controller {

// The Secret of CreateSnapshot and DeleteSnapshot as the controller resolves
// it for a new content, from the class parameters
// csi.storage.k8s.io/snapshotter-secret-name/-namespace: nullopt when
// neither is set (csi_params::SecretReferenceOf's rules), with the tokens
// ${volumesnapshotcontent.name} and ${volumesnapshot.namespace} (in both)
// and ${volumesnapshot.name} (in the name only).
base::Result<std::optional<kube::SecretReference>> SnapshotterSecretOf(
    const kube::StringMap& parameters, std::string_view content_name,
    const kube::VolumeSnapshot& snapshot);

// The Secret of CreateVolumeGroupSnapshot and DeleteVolumeGroupSnapshot as
// the controller resolves it for a new group content and its members
// (§3.5, §4.7), from csi.storage.k8s.io/group-snapshotter-secret-name/
// -namespace, by the same rules with the tokens
// ${volumegroupsnapshotcontent.name} and, when `group` is given,
// ${volumegroupsnapshot.namespace} (both) and ${volumegroupsnapshot.name}
// (the name only).
base::Result<std::optional<kube::SecretReference>> GroupSnapshotterSecretOf(
    const kube::StringMap& parameters, std::string_view content_name,
    const kube::VolumeGroupSnapshot* group);

}  // namespace snapshot_controller
