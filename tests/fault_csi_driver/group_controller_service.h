// The CSI GroupController service of the fault driver: group snapshots over
// SnapshotRegistry, following the CSI spec (served unless
// --no-group-snapshots):
//
//   CreateVolumeGroupSnapshot: name and source_volume_ids required, no empty
//     or repeated source (INVALID_ARGUMENT); a source no call or --volumes
//     named -> NOT_FOUND; the same name again with the same set of sources ->
//     the same group, with others -> ALREADY_EXISTS. Each source gets a member
//     snapshot carrying the group's ID, all cut at the group's creation_time.
//   GetVolumeGroupSnapshot: group_snapshot_id and snapshot_ids required; an
//     unknown or deleted group -> NOT_FOUND; snapshot_ids that are not the
//     group's members -> INVALID_ARGUMENT (the spec's "snapshot list
//     mismatch").
//   DeleteVolumeGroupSnapshot: the same checks, but an unknown or deleted
//     group -> OK; deletes the group and its members.
//   GroupControllerGetCapabilities: CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT.
#pragma once

#include <optional>

#include "csi/proto/csi.grpc.pb.h"
#include "tests/fault_csi_driver/call_scope.h"

namespace faultdriver {

class GroupControllerService final : public csi::v1::GroupController::Service {
 public:
  explicit GroupControllerService(const DriverContext& driver) : driver_(driver) {}

  grpc::Status GroupControllerGetCapabilities(
      grpc::ServerContext* context, const csi::v1::GroupControllerGetCapabilitiesRequest* request,
      csi::v1::GroupControllerGetCapabilitiesResponse* response) override;
  grpc::Status CreateVolumeGroupSnapshot(
      grpc::ServerContext* context, const csi::v1::CreateVolumeGroupSnapshotRequest* request,
      csi::v1::CreateVolumeGroupSnapshotResponse* response) override;
  grpc::Status GetVolumeGroupSnapshot(grpc::ServerContext* context,
                                      const csi::v1::GetVolumeGroupSnapshotRequest* request,
                                      csi::v1::GetVolumeGroupSnapshotResponse* response) override;
  grpc::Status DeleteVolumeGroupSnapshot(
      grpc::ServerContext* context, const csi::v1::DeleteVolumeGroupSnapshotRequest* request,
      csi::v1::DeleteVolumeGroupSnapshotResponse* response) override;

 private:
  grpc::Status Create(const csi::v1::CreateVolumeGroupSnapshotRequest& request,
                      const std::optional<FaultRule>& fault, csi::v1::VolumeGroupSnapshot* group);
  grpc::Status Get(const csi::v1::GetVolumeGroupSnapshotRequest& request,
                   csi::v1::VolumeGroupSnapshot* group);

  const DriverContext& driver_;
};

}  // namespace faultdriver
