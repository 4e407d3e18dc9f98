// Calls on the driver's Controller service that the sidecars make: the
// attacher's publish calls and ListVolumes, the provisioner's volume calls,
// the snapshotter's snapshot calls, the provisioner's capacity queries and the
// resizer's expand and modify calls.
// Each call runs under its own deadline (CallOptions::timeout, the --timeout
// flag); failures are gRPC errors as described in csi/errors.h.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/proto/csi.grpc.pb.h"

namespace csi {

// Volume ID -> IDs of the nodes the driver reports it published to.
using PublishedVolumes = std::unordered_map<std::string, std::vector<std::string>>;

class ControllerClient {
 public:
  explicit ControllerClient(Connection& connection);

  // The publish_context the driver returned.
  base::Result<std::map<std::string, std::string>> ControllerPublishVolume(
      const v1::ControllerPublishVolumeRequest& request, const CallOptions& options);

  base::Status ControllerUnpublishVolume(const v1::ControllerUnpublishVolumeRequest& request,
                                         const CallOptions& options);

  // All pages of ListVolumes: `max_entries` per page (0 = driver's choice),
  // following next_token until it is empty. Unlike upstream, whose whole pass
  // shares one deadline (external-attacher#599), every page gets its own
  // `page_timeout`. Entries without a volume or a status are skipped, as
  // upstream's lister does; a volume listed twice keeps its last entry.
  // Errors read "failed to list volumes: <error>".
  base::Result<PublishedVolumes> ListVolumes(int32_t max_entries,
                                             std::chrono::nanoseconds page_timeout);

  base::Result<v1::ControllerGetCapabilitiesResponse> ControllerGetCapabilities(
      std::chrono::nanoseconds timeout);

  base::Result<v1::CreateVolumeResponse> CreateVolume(const v1::CreateVolumeRequest& request,
                                                      const CallOptions& options);

  base::Status DeleteVolume(const v1::DeleteVolumeRequest& request, const CallOptions& options);

  base::Result<v1::CreateSnapshotResponse> CreateSnapshot(const v1::CreateSnapshotRequest& request,
                                                          const CallOptions& options);

  base::Status DeleteSnapshot(const v1::DeleteSnapshotRequest& request, const CallOptions& options);

  // One ListSnapshots call: the caller pages (next_token) if it needs to.
  base::Result<v1::ListSnapshotsResponse> ListSnapshots(const v1::ListSnapshotsRequest& request,
                                                        const CallOptions& options);

  base::Result<v1::GetCapacityResponse> GetCapacity(const v1::GetCapacityRequest& request,
                                                    const CallOptions& options);

  base::Result<v1::ControllerExpandVolumeResponse> ControllerExpandVolume(
      const v1::ControllerExpandVolumeRequest& request, const CallOptions& options);

  base::Result<v1::ControllerModifyVolumeResponse> ControllerModifyVolume(
      const v1::ControllerModifyVolumeRequest& request, const CallOptions& options);

 private:
  Connection& connection_;
  std::unique_ptr<v1::Controller::Stub> stub_;
};

}  // namespace csi
