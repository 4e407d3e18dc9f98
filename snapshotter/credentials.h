// The credentials a content handler hands the driver: Secret data, read
// directly (docs/snapshots.md §3.4 create step 2, §3.5, §3.8). Secret data
// only ever reach the driver, never a log line or an error.
#pragma once

#include <optional>

#include "base/result.h"
#include "kube/api/core/v1/volume_sources.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/api/string_map.h"
#include "snapshotter/snapshot_api.h"
#include "snapshotter/snapshot_driver.h"

namespace snapshotter {

Secrets ToSecrets(const kube::StringMap& data);

// The data of the Secret `ref` names; none for nullopt. A failed read is
// "error getting secret <name> in namespace <namespace>: <error>".
base::Result<Secrets> ReadSecret(SnapshotApi& api, const std::optional<kube::SecretReference>& ref);

// The data of the Secret the content's deletion-secret annotations name
// (DeletionSecretOf): the credentials of its create and delete calls; none
// without the annotations. A failed read is logged and returned, as
// upstream's, as "cannot get credentials for snapshot content \"<name>\""
// ("group snapshot content" for a group).
base::Result<Secrets> DeletionCredentials(SnapshotApi& api,
                                          const kube::VolumeSnapshotContent& content);
base::Result<Secrets> DeletionCredentials(SnapshotApi& api,
                                          const kube::VolumeGroupSnapshotContent& content);

}  // namespace snapshotter
