#include "snapshotter/startup_checks.h"

#include <utility>

#include "base/log.h"
#include "base/strconv.h"
#include "component/exit_codes.h"
#include "snapshotter/group_snapshot_crds.h"

namespace snapshotter {
namespace {

using component::StartupStep;

void LogStartupFailure(StartupStep step, const base::Error& error) {
  switch (step) {
    case StartupStep::kConnect:
      LOG_ERROR("error connecting to CSI driver: " + error.message);
      return;
    case StartupStep::kDriverName:
      LOG_ERROR("error getting CSI driver name: " + error.message);
      return;
    case StartupStep::kProbe:
      LOG_ERROR("error waiting for CSI driver to be ready: " + error.message);
      return;
    case StartupStep::kCapabilities:
      LOG_ERROR("error determining if driver supports create/delete snapshot operations: " +
                error.message);
      return;
  }
}

}  // namespace

component::SidecarStartup SidecarStartupFor(std::string csi_address,
                                            std::chrono::nanoseconds timeout,
                                            csi::MetricsHook metrics) {
  component::SidecarStartup startup;
  startup.csi_address = std::move(csi_address);
  startup.metrics = std::move(metrics);
  startup.probe_timeout = timeout;
  startup.identity_timeout = timeout;
  startup.name_before_probe = true;
  startup.read_capabilities = ReadControllerCapabilities;
  startup.wording.failure = LogStartupFailure;
  startup.wording.driver_named = [](const std::string& driver_name) {
    LOG_V(2, "CSI driver name: " + base::GoQuote(driver_name));
  };
  return startup;
}

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
