#include "snapshotter/startup_checks.h"

#include "base/log.h"
#include "component/exit_codes.h"
#include "snapshotter/group_snapshot_crds.h"

namespace snapshotter {

base::Result<csi::Capabilities> ReadControllerCapabilities(csi::Connection& connection,
                                                           std::chrono::nanoseconds timeout) {
  base::Result<std::set<csi::ControllerRpc::Type>> rpcs =
      csi::GetControllerRpcs(connection, timeout);
  if (!rpcs.ok()) return rpcs.error();
  return csi::Capabilities{.controller_rpcs = std::move(*rpcs)};
}

bool CheckSnapshotSupport(const component::CsiDriver& driver) {
  if (driver.capabilities.Has(csi::ControllerRpc::CREATE_DELETE_SNAPSHOT)) return true;
  LOG_ERROR("CSI driver " + driver.name + " does not support ControllerCreateSnapshot");
  return false;
}

GroupSnapshotsStart StartGroupSnapshots(const GroupSnapshotStartup& startup, kube::Client& client,
                                        const component::CsiDriver& driver) {
  if (!startup.enabled) return {};
  if (base::Status crds = CheckGroupSnapshotCrds(client); !crds.ok()) {
    LOG_WARNING(
        "VolumeGroupSnapshot CRDs were not found; disabling the VolumeGroupSnapshot feature for "
        "this run. Install the VolumeGroupSnapshot CRDs to use this feature: " +
        crds.error().message);
    return {};
  }
  base::Result<std::set<csi::GroupControllerRpc::Type>> rpcs =
      csi::GetGroupControllerRpcs(driver.connection, startup.timeout);
  if (!rpcs.ok()) {
    LOG_ERROR("error determining if driver supports create/delete group snapshot operations: " +
              rpcs.error().message);
  } else if (!rpcs->contains(csi::GroupControllerRpc::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT)) {
    LOG_WARNING("CSI driver " + driver.name +
                " does not support GroupControllerCreateVolumeGroupSnapshot when the "
                "--feature-gates=CSIVolumeGroupSnapshot=true flag is set");
  }
  if (startup.name_prefix.empty()) {
    return {.exit_code = component::Fail("group snapshot name prefix cannot be of length 0")};
  }
  return {.enabled = true};
}

}  // namespace snapshotter
