// The snapshotter's CSI sidecar start-up (docs/snapshots.md §3.2 steps 2-7):
// component::RunSidecar in the snapshotter's order and words, and its own
// steps around it, logged in upstream's words.
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

// Steps 2-6 as upstream's sidecar takes them: connect to `csi_address`, ask
// the driver's name (GetPluginInfo, within `timeout`), then the caller's
// on_driver_named (its HTTP server, step 4), then probe (each probe within
// `timeout`) and read the controller's capabilities
// (ReadControllerCapabilities). Failures read "error connecting to CSI
// driver: ...", "error getting CSI driver name: ...", "error waiting for
// CSI driver to be ready: ..." and "error determining if driver supports
// create/delete snapshot operations: ..."; the name is logged at V(2) as
// "CSI driver name: <quoted>". `metrics` records every call.
component::SidecarStartup SidecarStartupFor(std::string csi_address,
                                            std::chrono::nanoseconds timeout,
                                            csi::MetricsHook metrics);

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
