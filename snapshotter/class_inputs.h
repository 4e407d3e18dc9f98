// What a content handler takes from the content's class, for either kind
// (docs/snapshots.md §3.4 create steps 1, 2, 4, 5; §3.6; §3.8), with
// upstream's errors: the inputs of a create, and the credentials of a check
// of an imported snapshot. Classes come from the sidecar's cache, Secrets
// from direct reads. Both kinds are instantiated in class_inputs.cpp.
#pragma once

#include <map>
#include <string>

#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/store.h"
#include "snapshotter/snapshot_api.h"
#include "snapshotter/snapshot_driver.h"

namespace snapshotter {

struct CreateInputs {
  std::map<std::string, std::string> parameters;  // CreateParameters
  Secrets secrets;                                // DeletionCredentials
};

// The class's parameters (a content that snapshots volumes must name a
// class the cache has), the credentials of the deletion-secret annotations
// and the create parameters. A failure reads "failed to get input parameters
// to create snapshot for content <name>: <quoted reason>" ("group snapshot
// for group snapshot content" for a group), except an unknown reserved
// parameter key, whose error is CreateParameters'.
template <class Content, class Class>
base::Result<CreateInputs> CreateInputsOf(const Content& content, const kube::Store<Class>& classes,
                                          SnapshotApi& api, bool extra_create_metadata);

// The credentials of ListSnapshots (a single content: the class's
// snapshotter-list-secret-*) or GetVolumeGroupSnapshot (a group: the
// class's group-snapshotter-get-secret-*); none when the content names no
// class.
template <class Content, class Class>
base::Result<Secrets> CheckCredentialsOf(const Content& content, const kube::Store<Class>& classes,
                                         SnapshotApi& api);

extern template base::Result<CreateInputs> CreateInputsOf(
    const kube::VolumeSnapshotContent&, const kube::Store<kube::VolumeSnapshotClass>&, SnapshotApi&,
    bool);
extern template base::Result<CreateInputs> CreateInputsOf(
    const kube::VolumeGroupSnapshotContent&, const kube::Store<kube::VolumeGroupSnapshotClass>&,
    SnapshotApi&, bool);
extern template base::Result<Secrets> CheckCredentialsOf(
    const kube::VolumeSnapshotContent&, const kube::Store<kube::VolumeSnapshotClass>&,
    SnapshotApi&);
extern template base::Result<Secrets> CheckCredentialsOf(
    const kube::VolumeGroupSnapshotContent&, const kube::Store<kube::VolumeGroupSnapshotClass>&,
    SnapshotApi&);

}  // namespace snapshotter
