// GroupSnapshotDriver: the CSI calls the group content handler makes, in
// group snapshot terms (docs/snapshots.md §3.8); handler tests use a
// scripted fake. CsiGroupSnapshotDriver makes them on the driver's Identity
// and GroupController services, each under one `timeout` (--timeout) that a
// pre-call shares, as for single snapshots (snapshot_driver.h). A driver's
// failure is a gRPC-domain base::Error carrying its code (csi/errors.h);
// csi::IsFinalError tells which failures of a create are final.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/group_controller_client.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "snapshotter/csi_call_support.h"
#include "snapshotter/snapshot_driver.h"

namespace snapshotter {

struct CreateGroupSnapshotRequest {
  std::string name = {};
  std::vector<std::string> source_volume_ids = {};
  std::map<std::string, std::string> parameters = {};
  Secrets secrets = {};
};

// A group snapshot as the driver reports it.
struct DriverGroupSnapshot {
  std::string group_snapshot_id = {};
  // As DriverSnapshot::creation_time: 0 (the Unix epoch) when the driver
  // sends none, nullopt when it does not fit in int64 nanoseconds.
  std::optional<int64_t> creation_time = {};
  bool ready_to_use = false;
  // One entry per member snapshot, as status.volumeSnapshotInfoList records
  // it: creationTime nil when the driver sent none, restoreSize nil for 0.
  std::vector<kube::VolumeSnapshotInfo> members = {};
};

class GroupSnapshotDriver {
 public:
  virtual ~GroupSnapshotDriver() = default;
  // GetPluginInfo, then CreateVolumeGroupSnapshot{name, source_volume_ids,
  // parameters, secrets}.
  virtual base::Result<DriverGroupSnapshot> CreateGroupSnapshot(
      const CreateGroupSnapshotRequest& request) = 0;
  // GetVolumeGroupSnapshot{group_snapshot_id, snapshot_ids, secrets}.
  virtual base::Result<DriverGroupSnapshot> GetGroupSnapshot(
      const std::string& group_snapshot_id, const std::vector<std::string>& snapshot_ids,
      const Secrets& secrets) = 0;
  // DeleteVolumeGroupSnapshot{group_snapshot_id, snapshot_ids, secrets}.
  virtual base::Status DeleteGroupSnapshot(const std::string& group_snapshot_id,
                                           const std::vector<std::string>& snapshot_ids,
                                           const Secrets& secrets) = 0;
};

class CsiGroupSnapshotDriver final : public GroupSnapshotDriver, private CsiDriverCalls {
 public:
  CsiGroupSnapshotDriver(csi::Connection& connection, std::chrono::nanoseconds timeout)
      : CsiDriverCalls(connection, timeout), group_controller_(connection) {}

  base::Result<DriverGroupSnapshot> CreateGroupSnapshot(
      const CreateGroupSnapshotRequest& request) override;
  base::Result<DriverGroupSnapshot> GetGroupSnapshot(const std::string& group_snapshot_id,
                                                     const std::vector<std::string>& snapshot_ids,
                                                     const Secrets& secrets) override;
  base::Status DeleteGroupSnapshot(const std::string& group_snapshot_id,
                                   const std::vector<std::string>& snapshot_ids,
                                   const Secrets& secrets) override;

 private:
  csi::GroupControllerClient group_controller_;
};

}  // namespace snapshotter
