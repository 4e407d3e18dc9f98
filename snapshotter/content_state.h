// What a content's fields mean to the sidecar: the questions a sync asks, in
// the order it asks them (docs/snapshots.md §3.4 for a VolumeSnapshotContent,
// §3.8 for a VolumeGroupSnapshotContent; one overload per kind where both
// ask). Pure functions of the object.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshotter {

bool HasAnnotation(const kube::VolumeSnapshotContent& content, std::string_view key);

// The class the content names, if any.
const std::optional<std::string>& ClassNameOf(const kube::VolumeSnapshotContent& content);
const std::optional<std::string>& ClassNameOf(const kube::VolumeGroupSnapshotContent& content);

// Step 1: a deletionTimestamp, then (a) an unbound pre-provisioned content
// → yes; (b) the kind's being-created annotation → no; (c) its being-deleted
// annotation (the controller's: the snapshot is being deleted) → yes; (d)
// otherwise no.
bool ShouldDelete(const kube::VolumeSnapshotContent& content);
bool ShouldDelete(const kube::VolumeGroupSnapshotContent& content);

// Whether deleting the content deletes its snapshot on the backend: policy
// Delete and a status handle (status.snapshotHandle, and not a member of a
// group snapshot; status.volumeGroupSnapshotHandle for a group).
bool DeletesBackendSnapshot(const kube::VolumeSnapshotContent& content);
bool DeletesBackendSnapshot(const kube::VolumeGroupSnapshotContent& content);

// Whether the status names the backend snapshot (its handle is set): a
// create from then on only polls readiness.
bool NamesBackendSnapshot(const kube::VolumeSnapshotContent& content);
bool NamesBackendSnapshot(const kube::VolumeGroupSnapshotContent& content);

// A member of a group snapshot: the group's handler creates its snapshot.
bool IsGroupMember(const kube::VolumeSnapshotContent& content);

// Dynamic: it snapshots volumes (source.volumeHandle; a group's
// source.volumeHandles), so a create needs a class.
bool SnapshotsVolumes(const kube::VolumeSnapshotContent& content);
bool SnapshotsVolumes(const kube::VolumeGroupSnapshotContent& content);

// Step 2: dynamic, never answered (and not a group member).
bool NeedsFirstCreate(const kube::VolumeSnapshotContent& content);
bool NeedsFirstCreate(const kube::VolumeGroupSnapshotContent& content);

// §3.4 step 4: readiness comes from ListSnapshots (§3.6) rather than from
// CreateSnapshot: pre-provisioned, or a group member with both handles.
bool ChecksThroughList(const kube::VolumeSnapshotContent& content);

// §3.8: an imported group (source.groupSnapshotHandles), checked with
// GetVolumeGroupSnapshot.
bool IsPreProvisioned(const kube::VolumeGroupSnapshotContent& content);

// §9.6: the (group) snapshot is being deleted and the last create failed
// with no create left in flight (no being-created annotation) and no
// snapshot made: creating it again could only make a snapshot nobody wants.
bool IsCreateAbandoned(const kube::VolumeSnapshotContent& content);
bool IsCreateAbandoned(const kube::VolumeGroupSnapshotContent& content);

}  // namespace snapshotter
