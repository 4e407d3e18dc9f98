// What a VolumeSnapshotContent's fields mean to the sidecar: the questions
// syncContent asks, in the order it asks them (docs/snapshots.md §3.4).
// Pure functions of the object.
#pragma once

#include <string_view>

#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshotter {

bool HasAnnotation(const kube::VolumeSnapshotContent& content, std::string_view key);

// §3.4 step 1: a deletionTimestamp, then (a) an unbound pre-provisioned
// content → yes; (b) being created → no; (c) its VolumeSnapshot being
// deleted → yes; (d) otherwise no.
bool ShouldDelete(const kube::VolumeSnapshotContent& content);

// Whether deleting the content deletes the snapshot on the backend: policy
// Delete, a status.snapshotHandle, and not a member of a group snapshot.
bool DeletesBackendSnapshot(const kube::VolumeSnapshotContent& content);

bool IsReady(const kube::VolumeSnapshotContent& content);

// A member of a group snapshot: the group's handler creates its snapshot.
bool IsGroupMember(const kube::VolumeSnapshotContent& content);

// §3.4 step 2: dynamic, never answered, not a group member.
bool NeedsFirstCreate(const kube::VolumeSnapshotContent& content);

// §3.4 step 4: readiness comes from ListSnapshots (§3.6) rather than from
// CreateSnapshot: pre-provisioned, or a group member with both handles.
bool ChecksThroughList(const kube::VolumeSnapshotContent& content);

// §9.6: the VolumeSnapshot is being deleted and the last create failed with
// no CreateSnapshot left in flight (no being-created annotation) and no
// snapshot made: creating it again could only make a snapshot nobody wants.
bool IsCreateAbandoned(const kube::VolumeSnapshotContent& content);

}  // namespace snapshotter
