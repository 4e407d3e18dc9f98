// SnapshotDriver: the CSI calls the content handler makes, in snapshot terms
// (docs/snapshots.md §3.4 create step 6 and step 1, §3.6); handler tests use a
// scripted fake. CsiSnapshotDriver makes them on the driver's Identity and
// Controller services. Each operation runs under one `timeout` (--timeout)
// that its pre-call (GetPluginInfo, ControllerGetCapabilities) shares, as
// upstream's per-operation context does. A driver's failure is a gRPC-domain
// base::Error carrying its code (csi/errors.h); other failures have none.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/controller_client.h"
#include "snapshotter/csi_call_support.h"

namespace snapshotter {

using Secrets = std::map<std::string, std::string>;

struct CreateSnapshotRequest {
  std::string name = {};
  std::string source_volume_id = {};
  std::map<std::string, std::string> parameters = {};
  Secrets secrets = {};
};

// A snapshot as the driver reports it.
struct DriverSnapshot {
  std::string snapshot_id = {};
  // Unix nanoseconds. A driver that sends no creation_time reports 0, the
  // Unix epoch, as upstream reads a missing Timestamp. nullopt: a time that
  // does not fit in int64 nanoseconds (Go's zero time among them), which
  // upstream replaces with now.
  std::optional<int64_t> creation_time = {};
  int64_t size_bytes = 0;
  bool ready_to_use = false;
  std::string group_snapshot_id = {};
};

class SnapshotDriver {
 public:
  virtual ~SnapshotDriver() = default;
  // GetPluginInfo, then CreateSnapshot.
  virtual base::Result<DriverSnapshot> CreateSnapshot(const CreateSnapshotRequest& request) = 0;
  virtual base::Status DeleteSnapshot(const std::string& snapshot_id, const Secrets& secrets) = 0;
  // ControllerGetCapabilities, then, only when the driver advertises
  // LIST_SNAPSHOTS, ListSnapshots{snapshot_id, secrets}: its first entry.
  // nullopt when LIST_SNAPSHOTS is not advertised. Errors: "failed to check
  // if ListSnapshots is supported: <error>"; an empty list is "can not find
  // snapshot for snapshotID <id>"; a failed ListSnapshots is returned as is.
  virtual base::Result<std::optional<DriverSnapshot>> ListSnapshot(const std::string& snapshot_id,
                                                                   const Secrets& secrets) = 0;
};

class CsiSnapshotDriver final : public SnapshotDriver, private CsiDriverCalls {
 public:
  CsiSnapshotDriver(csi::Connection& connection, std::chrono::nanoseconds timeout)
      : CsiDriverCalls(connection, timeout), controller_(connection) {}

  base::Result<DriverSnapshot> CreateSnapshot(const CreateSnapshotRequest& request) override;
  base::Status DeleteSnapshot(const std::string& snapshot_id, const Secrets& secrets) override;
  base::Result<std::optional<DriverSnapshot>> ListSnapshot(const std::string& snapshot_id,
                                                           const Secrets& secrets) override;

 private:
  csi::ControllerClient controller_;
};

}  // namespace snapshotter
