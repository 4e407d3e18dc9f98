// The CSI Controller service of the fault driver: a fake back end that
// creates and deletes volumes (VolumeRpcs), attaches them to nodes in memory
// (VolumeRegistry) and takes snapshots (SnapshotRpcs), with the latencies and
// faults the command line and faults.json ask for.
//
//   Publish: idempotent per node, publish_context {"devicePath":
//     "/dev/fault/<volume>"}; a node not in --node-id or a volume
//     DeleteVolume removed -> NOT_FOUND; a second node for a single-node
//     access mode -> FAILED_PRECONDITION.
//   Unpublish: unknown volume or node -> OK; empty node_id -> every node.
//   ListVolumes: needs LIST_VOLUMES advertised (else UNIMPLEMENTED); every
//     volume known, published_node_ids filled with LIST_VOLUMES_PUBLISHED_NODES.
//   ControllerExpandVolume: needs EXPAND_VOLUME advertised (else
//     UNIMPLEMENTED) and a volume ID; answers the size asked for, no node
//     step, unless a fault rule says otherwise.
//   ControllerModifyVolume: needs MODIFY_VOLUME advertised (else
//     UNIMPLEMENTED) and a volume ID; records the mutable parameters and
//     answers OK unless a fault rule says otherwise.
//   GetCapacity: needs GET_CAPACITY advertised (else UNIMPLEMENTED); 1 TiB
//     and no maximum volume size unless a fault rule says otherwise.
#pragma once

#include "csi/proto/csi.grpc.pb.h"
#include "tests/fault_csi_driver/call_scope.h"
#include "tests/fault_csi_driver/snapshot_rpcs.h"
#include "tests/fault_csi_driver/volume_rpcs.h"

namespace faultdriver {

class ControllerService final : public csi::v1::Controller::Service {
 public:
  explicit ControllerService(const DriverContext& driver)
      : driver_(driver), volumes_(driver), snapshots_(driver) {}

  grpc::Status CreateVolume(grpc::ServerContext* context,
                            const csi::v1::CreateVolumeRequest* request,
                            csi::v1::CreateVolumeResponse* response) override {
    return volumes_.CreateVolume(context, *request, response);
  }
  grpc::Status DeleteVolume(grpc::ServerContext* context,
                            const csi::v1::DeleteVolumeRequest* request,
                            csi::v1::DeleteVolumeResponse* response) override {
    return volumes_.DeleteVolume(context, *request);
  }

  grpc::Status ControllerPublishVolume(grpc::ServerContext* context,
                                       const csi::v1::ControllerPublishVolumeRequest* request,
                                       csi::v1::ControllerPublishVolumeResponse* response) override;
  grpc::Status ControllerUnpublishVolume(
      grpc::ServerContext* context, const csi::v1::ControllerUnpublishVolumeRequest* request,
      csi::v1::ControllerUnpublishVolumeResponse* response) override;
  grpc::Status ListVolumes(grpc::ServerContext* context, const csi::v1::ListVolumesRequest* request,
                           csi::v1::ListVolumesResponse* response) override;
  grpc::Status ControllerExpandVolume(grpc::ServerContext* context,
                                      const csi::v1::ControllerExpandVolumeRequest* request,
                                      csi::v1::ControllerExpandVolumeResponse* response) override;
  grpc::Status ControllerModifyVolume(grpc::ServerContext* context,
                                      const csi::v1::ControllerModifyVolumeRequest* request,
                                      csi::v1::ControllerModifyVolumeResponse* response) override;
  grpc::Status GetCapacity(grpc::ServerContext* context, const csi::v1::GetCapacityRequest* request,
                           csi::v1::GetCapacityResponse* response) override;
  grpc::Status ControllerGetCapabilities(
      grpc::ServerContext* context, const csi::v1::ControllerGetCapabilitiesRequest* request,
      csi::v1::ControllerGetCapabilitiesResponse* response) override;
  grpc::Status CreateSnapshot(grpc::ServerContext* context,
                              const csi::v1::CreateSnapshotRequest* request,
                              csi::v1::CreateSnapshotResponse* response) override {
    return snapshots_.CreateSnapshot(context, *request, response);
  }
  grpc::Status DeleteSnapshot(grpc::ServerContext* context,
                              const csi::v1::DeleteSnapshotRequest* request,
                              csi::v1::DeleteSnapshotResponse* response) override {
    return snapshots_.DeleteSnapshot(context, *request);
  }
  grpc::Status ListSnapshots(grpc::ServerContext* context,
                             const csi::v1::ListSnapshotsRequest* request,
                             csi::v1::ListSnapshotsResponse* response) override {
    return snapshots_.ListSnapshots(context, *request, response);
  }

 private:
  grpc::Status Publish(const csi::v1::ControllerPublishVolumeRequest& request,
                       csi::v1::ControllerPublishVolumeResponse* response);
  grpc::Status List(const csi::v1::ListVolumesRequest& request,
                    csi::v1::ListVolumesResponse* response);

  const DriverContext& driver_;
  VolumeRpcs volumes_;
  SnapshotRpcs snapshots_;
};

}  // namespace faultdriver
