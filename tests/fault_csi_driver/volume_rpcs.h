// CreateVolume and DeleteVolume of the fault driver's Controller service,
// over VolumeRegistry, following the CSI spec:
//
//   CreateVolume: name and at least one volume_capability required
//     (INVALID_ARGUMENT). The volume is "vol-<name>"; the same name again
//     answers the existing volume, nothing compared. capacity_bytes is
//     required_bytes, or 1 GiB (at most limit_bytes) when that is 0; a
//     limit_bytes below required_bytes -> OUT_OF_RANGE, negative bytes ->
//     INVALID_ARGUMENT. A `capacity_bytes` fault sets the capacity of the
//     volume the call creates. The answer echoes the request's
//     volume_content_source (not checked), volume_context is
//     {"createdBy": "fault-csi-driver"}, accessible_topology is empty.
//     An ID that --volumes or a Publish call made known -> ALREADY_EXISTS.
//   DeleteVolume: volume_id required; an unknown or deleted ID -> OK; a
//     volume still published to a node -> FAILED_PRECONDITION.
//
// Both need CREATE_DELETE_VOLUME advertised, else UNIMPLEMENTED.
#pragma once

#include <optional>

#include "csi/proto/csi.grpc.pb.h"
#include "tests/fault_csi_driver/call_scope.h"

namespace faultdriver {

class VolumeRpcs {
 public:
  explicit VolumeRpcs(const DriverContext& driver) : driver_(driver) {}

  grpc::Status CreateVolume(grpc::ServerContext* context,
                            const csi::v1::CreateVolumeRequest& request,
                            csi::v1::CreateVolumeResponse* response);
  grpc::Status DeleteVolume(grpc::ServerContext* context,
                            const csi::v1::DeleteVolumeRequest& request);

 private:
  grpc::Status Create(const csi::v1::CreateVolumeRequest& request, const CallScope& call,
                      csi::v1::Volume* volume);
  grpc::Status Delete(const csi::v1::DeleteVolumeRequest& request, CallScope& call);

  const DriverContext& driver_;
};

}  // namespace faultdriver
