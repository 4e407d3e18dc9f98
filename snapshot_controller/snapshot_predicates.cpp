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

}  // namespace snapshot_controller
