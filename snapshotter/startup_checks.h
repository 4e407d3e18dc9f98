// The snapshotter's own start-up steps around the CSI sidecar start-up
// (docs/snapshots.md §3.2 steps 6 and 7), logged in upstream's words.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "base/result.h"
#include "component/sidecar_startup.h"
#include "csi/capabilities.h"
#include "csi/connection.h"
#include "kube/client/client.h"

namespace snapshotter {

// Step 6 reads only the controller's RPCs (ControllerGetCapabilities), as
// upstream does, whatever plugin services the driver advertises.
base::Result<csi::Capabilities> ReadControllerCapabilities(csi::Connection& connection,
                                                           std::chrono::nanoseconds timeout);

// Step 6: the sidecar needs CREATE_DELETE_SNAPSHOT; without it, logs "CSI
// driver <name> does not support ControllerCreateSnapshot" and returns false.
bool CheckSnapshotSupport(const component::CsiDriver& driver);

struct GroupSnapshotStartup {
  bool enabled = true;               // gate CSIVolumeGroupSnapshot
  std::string name_prefix;           // --groupsnapshot-name-prefix
  std::chrono::nanoseconds timeout;  // --timeout, for GroupControllerGetCapabilities
};

// What step 7 decided: the exit code when start-up ends here; else whether
// the sidecar handles VolumeGroupSnapshotContents (step 9).
struct GroupSnapshotsStart {
  std::optional<int> exit_code = {};
  bool enabled = false;
};

// Step 7: groups stay off with the gate off, and with the group CRDs
// missing (CheckGroupSnapshotCrds: upstream's warning). Otherwise the
// driver's GroupControllerGetCapabilities (an error or no
// CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT is only logged, as upstream), and
// an empty name prefix ends start-up with exit 1 (logged); else groups are on.
GroupSnapshotsStart StartGroupSnapshots(const GroupSnapshotStartup& startup, kube::Client& client,
                                        const component::CsiDriver& driver);

}  // namespace snapshotter
