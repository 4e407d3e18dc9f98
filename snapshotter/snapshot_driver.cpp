#include "snapshotter/snapshot_driver.h"

#include <grpcpp/support/status.h>

#include "base/log.h"
#include "csi/capabilities.h"

namespace snapshotter {
namespace {

namespace v1 = csi::v1;

// Unix nanoseconds of a CSI Timestamp; absent means the Unix epoch.
std::optional<int64_t> CreationTime(const v1::Snapshot& snapshot) {
  if (!snapshot.has_creation_time()) return 0;
  return UnixNanos(snapshot.creation_time());
}

DriverSnapshot FromCsi(const v1::Snapshot& snapshot) {
  return DriverSnapshot{.snapshot_id = snapshot.snapshot_id(),
                        .creation_time = CreationTime(snapshot),
                        .size_bytes = snapshot.size_bytes(),
                        .ready_to_use = snapshot.ready_to_use(),
                        .group_snapshot_id = snapshot.group_snapshot_id()};
}

}  // namespace

base::Result<DriverSnapshot> CsiSnapshotDriver::CreateSnapshot(
    const CreateSnapshotRequest& request) {
  OperationDeadline deadline(timeout_);
  auto driver_name = identity_.GetDriverName(deadline.Remaining());
  if (!driver_name.ok()) return driver_name.error();

  v1::CreateSnapshotRequest csi_request;
  csi_request.set_source_volume_id(request.source_volume_id);
  SetCreateFields(request, csi_request);
  auto response = controller_.CreateSnapshot(csi_request, {.timeout = deadline.Remaining()});
  if (!response.ok()) return response.error();
  // Upstream dereferences the missing message and panics; here it is an
  // error that is not final, so the create is retried.
  if (!response->has_snapshot()) return base::Error("CreateSnapshot returned no snapshot");
  DriverSnapshot snapshot = FromCsi(response->snapshot());
  LOG_V(5, "CSI CreateSnapshot answered")
      .With("name", request.name)
      .With("driver", *driver_name)
      .With("snapshotID", snapshot.snapshot_id)
      .With("size", snapshot.size_bytes)
      .With("readyToUse", snapshot.ready_to_use);
  return snapshot;
}

base::Status CsiSnapshotDriver::DeleteSnapshot(const std::string& snapshot_id,
                                               const Secrets& secrets) {
  v1::DeleteSnapshotRequest request;
  request.set_snapshot_id(snapshot_id);
  request.mutable_secrets()->insert(secrets.begin(), secrets.end());
  return controller_.DeleteSnapshot(request, {.timeout = timeout_});
}

base::Result<std::optional<DriverSnapshot>> CsiSnapshotDriver::ListSnapshot(
    const std::string& snapshot_id, const Secrets& secrets) {
  OperationDeadline deadline(timeout_);
  auto capabilities = controller_.ControllerGetCapabilities(deadline.Remaining());
  if (!capabilities.ok()) {
    return capabilities.error().Wrap("failed to check if ListSnapshots is supported");
  }
  bool advertised = false;
  for (const auto& capability : capabilities->capabilities()) {
    if (capability.rpc().type() == csi::ControllerRpc::LIST_SNAPSHOTS) advertised = true;
  }
  if (!advertised) return std::optional<DriverSnapshot>();

  v1::ListSnapshotsRequest request;
  request.set_snapshot_id(snapshot_id);
  request.mutable_secrets()->insert(secrets.begin(), secrets.end());
  auto response = controller_.ListSnapshots(request, {.timeout = deadline.Remaining()});
  if (!response.ok()) return response.error();
  if (response->entries().empty()) {
    return base::Error("can not find snapshot for snapshotID " + snapshot_id);
  }
  // As for CreateSnapshot: upstream panics on a missing message.
  if (!response->entries(0).has_snapshot())
    return base::Error("ListSnapshots returned no snapshot");
  return std::optional<DriverSnapshot>(FromCsi(response->entries(0).snapshot()));
}

}  // namespace snapshotter
