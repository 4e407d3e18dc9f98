// The snapshot RPCs of the fault driver's Controller service, over
// SnapshotRegistry, following the CSI spec:
//
//   CreateSnapshot: name and source_volume_id required (INVALID_ARGUMENT);
//     a source no call or --volumes named -> NOT_FOUND; the same name again
//     from the same source -> the same snapshot, from another source ->
//     ALREADY_EXISTS. size_bytes is the source's capacity, else
//     --snapshot-size-bytes.
//   DeleteSnapshot: snapshot_id required; an unknown ID -> OK; a member of a
//     group snapshot -> INVALID_ARGUMENT (the spec's "snapshot is part of a
//     group": only DeleteVolumeGroupSnapshot deletes it).
//   ListSnapshots: by snapshot_id, by source_volume_id, or all, paged,
//     group members included (with their group_snapshot_id); an unknown ID
//     or source -> empty; an unknown starting_token -> ABORTED.
//
// Each needs its capability advertised (CREATE_DELETE_SNAPSHOT,
// LIST_SNAPSHOTS), else UNIMPLEMENTED.
#pragma once

#include "csi/proto/csi.grpc.pb.h"
#include "tests/fault_csi_driver/call_scope.h"

namespace faultdriver {

class SnapshotRpcs {
 public:
  explicit SnapshotRpcs(const DriverContext& driver) : driver_(driver) {}

  grpc::Status CreateSnapshot(grpc::ServerContext* context,
                              const csi::v1::CreateSnapshotRequest& request,
                              csi::v1::CreateSnapshotResponse* response);
  grpc::Status DeleteSnapshot(grpc::ServerContext* context,
                              const csi::v1::DeleteSnapshotRequest& request);
  grpc::Status ListSnapshots(grpc::ServerContext* context,
                             const csi::v1::ListSnapshotsRequest& request,
                             csi::v1::ListSnapshotsResponse* response);

 private:
  grpc::Status Create(const csi::v1::CreateSnapshotRequest& request,
                      const std::optional<FaultRule>& fault, csi::v1::Snapshot* snapshot);
  grpc::Status List(const csi::v1::ListSnapshotsRequest& request,
                    csi::v1::ListSnapshotsResponse* response);

  const DriverContext& driver_;
};

}  // namespace faultdriver
