#include "snapshot_controller/snapshot_predicates.h"

#include "kube/api/metadata_patch.h"
#include "snapshot_controller/names.h"

namespace snapshot_controller {

bool IsDeletionCandidate(const kube::VolumeSnapshot& snapshot) {
  return !snapshot.metadata.deletion_timestamp.empty() &&
         (kube::HasFinalizer(snapshot.metadata, kSnapshotAsSourceFinalizer) ||
          kube::HasFinalizer(snapshot.metadata, kSnapshotBoundFinalizer));
}

bool PointsBackTo(const kube::VolumeSnapshotContent& content,
                  const kube::VolumeSnapshot& snapshot) {
  const kube::ObjectReference& ref = content.spec.volume_snapshot_ref;
  return ref.name == snapshot.metadata.name && ref.namespace_ == snapshot.metadata.namespace_ &&
         ref.uid == snapshot.metadata.uid;
}

bool IsDeletionCandidate(const kube::VolumeGroupSnapshot& group) {
  return !group.metadata.deletion_timestamp.empty() &&
         kube::HasFinalizer(group.metadata, kGroupSnapshotBoundFinalizer);
}

bool PointsBackTo(const kube::VolumeGroupSnapshotContent& content,
                  const kube::VolumeGroupSnapshot& group) {
  const kube::ObjectReference& ref = content.spec.volume_group_snapshot_ref;
  return ref.name == group.metadata.name && ref.namespace_ == group.metadata.namespace_ &&
         ref.uid == group.metadata.uid;
}

}  // namespace snapshot_controller
