// What a CSI driver can do: the capability enums it advertised, as sets.
// GetCapabilities reads them at start-up: GetPluginCapabilities, then
// ControllerGetCapabilities only when the plugin serves CONTROLLER_SERVICE,
// and GroupControllerGetCapabilities only when asked for and the plugin
// serves GROUP_CONTROLLER_SERVICE (the attacher never asks; docs/attacher.md
// §1.4 step 14). All calls share one deadline, as in upstream's sidecars. A
// sidecar that reads one service on its own (docs/snapshots.md §3.2) uses the
// per-service readers. What the sets mean for a sidecar is that sidecar's
// policy (e.g. attacher/capability_policy.h).
#pragma once

#include <chrono>
#include <set>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/proto/csi.pb.h"

namespace csi {

// The enum holders: PluginService::CONTROLLER_SERVICE,
// ControllerRpc::LIST_SNAPSHOTS, GroupControllerRpc::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT.
using PluginService = v1::PluginCapability::Service;
using ControllerRpc = v1::ControllerServiceCapability::RPC;
using GroupControllerRpc = v1::GroupControllerServiceCapability::RPC;

struct Capabilities {
  std::set<PluginService::Type> plugin_services = {};
  std::set<ControllerRpc::Type> controller_rpcs = {};
  std::set<GroupControllerRpc::Type> group_controller_rpcs = {};

  bool Has(PluginService::Type c) const { return plugin_services.contains(c); }
  bool Has(ControllerRpc::Type c) const { return controller_rpcs.contains(c); }
  bool Has(GroupControllerRpc::Type c) const { return group_controller_rpcs.contains(c); }

  bool operator==(const Capabilities&) const = default;
};

// One service's capabilities, each read with one call under `timeout`; the
// entries of other kinds (e.g. VolumeExpansion) and those without a type are
// skipped.
base::Result<std::set<PluginService::Type>> GetPluginServices(Connection& connection,
                                                              std::chrono::nanoseconds timeout);
base::Result<std::set<ControllerRpc::Type>> GetControllerRpcs(Connection& connection,
                                                              std::chrono::nanoseconds timeout);
base::Result<std::set<GroupControllerRpc::Type>> GetGroupControllerRpcs(
    Connection& connection, std::chrono::nanoseconds timeout);

// Which optional services' capabilities GetCapabilities reads.
struct CapabilityQuery {
  bool group_controller = false;
};

base::Result<Capabilities> GetCapabilities(Connection& connection, std::chrono::nanoseconds timeout,
                                           CapabilityQuery query = {});

}  // namespace csi
