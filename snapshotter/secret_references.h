// Which Secret holds the credentials of the sidecar's CSI calls
// (docs/snapshots.md §3.4 create step 2, §3.5, §3.6, §3.8): the one the
// controller recorded in a content's deletion-secret annotations, or one the
// class's parameters name (snapshot/class_secrets.h). Only references are
// resolved here; the sidecar's handler reads the Secret. Error texts are
// upstream's, because they end up in status.error and Events.
#pragma once

#include <optional>
#include <string_view>

#include "base/result.h"
#include "kube/api/core/v1/volume_sources.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/api/string_map.h"

namespace snapshotter {

// The Secret of CreateSnapshot and DeleteSnapshot, named by the content's
// deletion-secret annotations: nullopt unless both are present. Both present
// but either empty is an error. For a group content: the Secret of
// CreateVolumeGroupSnapshot and DeleteVolumeGroupSnapshot, named by the
// groupsnapshot.storage.kubernetes.io/deletion-secret-* annotations.
base::Result<std::optional<kube::SecretReference>> DeletionSecretOf(
    const kube::VolumeSnapshotContent& content);
base::Result<std::optional<kube::SecretReference>> DeletionSecretOf(
    const kube::VolumeGroupSnapshotContent& content);

// The Secret of ListSnapshots, named by the class parameters
// csi.storage.k8s.io/snapshotter-list-secret-name/-namespace: nullopt when
// neither is set. Both must be set and non-empty; each may use the token
// ${volumesnapshotcontent.name} (shell-style expansion, as Go's os.Expand);
// the namespace must resolve to a DNS-1123 label, the name to a DNS-1123
// subdomain.
base::Result<std::optional<kube::SecretReference>> ListSecretOf(const kube::StringMap& parameters,
                                                                std::string_view content_name);

// The Secret of GetVolumeGroupSnapshot (§3.5), named by the group class
// parameters csi.storage.k8s.io/group-snapshotter-get-secret-name/-namespace:
// the rules of ListSecretOf, with ${volumegroupsnapshotcontent.name} as the
// only token.
base::Result<std::optional<kube::SecretReference>> GroupGetSecretOf(
    const kube::StringMap& parameters, std::string_view content_name);

}  // namespace snapshotter
