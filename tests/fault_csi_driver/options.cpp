#include "tests/fault_csi_driver/options.h"

#include <algorithm>
#include <iostream>

#include "base/ascii.h"
#include "base/file.h"
#include "base/flag_maps.h"
#include "base/flags.h"
#include "base/strconv.h"
#include "csi/address.h"

namespace faultdriver {
namespace {

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string_view item = base::TrimSpace(std::string_view(text).substr(start, comma - start));
    if (!item.empty()) items.emplace_back(item);
    start = comma + 1;
  }
  return items;
}

using Capability = csi::v1::ControllerServiceCapability::RPC;

base::Error UsageError(const std::string& message) {
  std::cerr << "fault-csi-driver: " << message << "\n";
  return base::Error::WithCode(base::kExitUsageError, message);
}

// The volume and snapshot lifecycle capabilities are on unless switched off,
// so attacher, provisioner and snapshotter tests can share one command line;
// naming one in --capabilities and switching it off is a contradiction, not a
// preference.
base::Status AddDefaultCapability(Capability::Type type, bool switched_off,
                                  const std::string& switch_name, DriverOptions* options) {
  const bool listed = options->Advertises(type);
  if (listed && switched_off) {
    return UsageError("--capabilities names " + Capability::Type_Name(type) + " but --" +
                      switch_name + " is set");
  }
  if (!listed && !switched_off) options->capabilities.push_back(type);
  return base::Status::Ok();
}

}  // namespace

bool DriverOptions::Advertises(Capability::Type type) const {
  return std::find(capabilities.begin(), capabilities.end(), type) != capabilities.end();
}

base::Result<DriverOptions> ParseDriverOptions(int argc, const char* const* argv) {
  DriverOptions options;
  std::string endpoint, node_ids, capabilities;
  bool no_controller_service = false, no_create_delete_volume = false, no_snapshots = false,
       no_list_snapshots = false, no_group_snapshots = false;
  std::map<std::string, std::string> volumes;
  std::string node_topology;

  base::FlagSet flags("fault-csi-driver");
  flags.String("endpoint", &endpoint, "", "CSI socket to serve: /path or unix://path (required)");
  flags.String("name", &options.driver_name, "fault.csi.test",
               "driver name returned by GetPluginInfo");
  flags.String("node-id", &node_ids, "",
               "comma-separated node IDs ControllerPublishVolume accepts (others get NOT_FOUND); "
               "empty accepts any");
  flags.Duration("publish-latency", &options.publish_latency, {},
                 "time every ControllerPublishVolume takes");
  flags.Duration("unpublish-latency", &options.unpublish_latency, {},
                 "time every ControllerUnpublishVolume takes");
  flags.String("capabilities", &capabilities, "PUBLISH_UNPUBLISH_VOLUME",
               "comma-separated controller capabilities to advertise");
  flags.Bool("no-controller-service", &no_controller_service, false,
             "advertise no CONTROLLER_SERVICE and serve no Controller RPCs");
  flags.Bool("no-create-delete-volume", &no_create_delete_volume, false,
             "advertise no CREATE_DELETE_VOLUME; CreateVolume and DeleteVolume answer "
             "UNIMPLEMENTED");
  flags.Bool("no-snapshots", &no_snapshots, false,
             "advertise neither CREATE_DELETE_SNAPSHOT nor LIST_SNAPSHOTS; the snapshot RPCs "
             "answer UNIMPLEMENTED");
  flags.Bool("no-list-snapshots", &no_list_snapshots, false,
             "advertise no LIST_SNAPSHOTS; ListSnapshots answers UNIMPLEMENTED");
  flags.Bool("no-group-snapshots", &no_group_snapshots, false,
             "advertise no GROUP_CONTROLLER_SERVICE and serve no GroupController RPCs");
  flags.Bool("accessible-topology", &options.accessible_topology, false,
             "advertise VOLUME_ACCESSIBILITY_CONSTRAINTS; CreateVolume makes the volume in the "
             "request's first preferred (else first requisite) topology");
  flags.String("node-info-id", &options.node_info_id, "fault-node", "node_id NodeGetInfo answers");
  flags.String("node-topology", &node_topology, "",
               "accessible_topology NodeGetInfo answers, KEY=VALUE,...; empty: none");
  flags.Var("volumes", std::make_unique<base::ColonMapValue>(&volumes),
            "volumes the back end has, ID:BYTES,... (BYTES 0: size unknown); CreateVolume, "
            "Publish and Unpublish calls add the volumes they name");
  flags.Int("snapshot-size-bytes", &options.snapshot_size_bytes, int64_t{1} << 30,
            "size_bytes of a snapshot whose source volume's capacity is unknown");
  flags.String("state-file", &options.state_file, "",
               "JSON file rewritten after every call with the calls and the back-end state");
  flags.String("control-dir", &options.control_dir, "",
               "directory whose faults.json is re-read when it changes");
  if (base::Status parsed = flags.Parse(argc, argv); !parsed.ok()) return parsed.error();

  if (endpoint.empty()) return UsageError("--endpoint is required");
  base::Result<csi::UnixAddress> address = csi::ParseAddress(endpoint);
  if (!address.ok()) return UsageError("--endpoint: " + address.error().message);
  options.socket_path = address->path;
  if (options.driver_name.empty()) return UsageError("--name must not be empty");

  for (const std::string& node : SplitList(node_ids)) options.node_ids.insert(node);
  for (const std::string& name : SplitList(capabilities)) {
    csi::v1::ControllerServiceCapability::RPC::Type type;
    if (!csi::v1::ControllerServiceCapability::RPC::Type_Parse(name, &type) ||
        type == csi::v1::ControllerServiceCapability::RPC::UNKNOWN) {
      return UsageError("--capabilities: unknown controller capability \"" + name + "\"");
    }
    options.capabilities.push_back(type);
  }
  if (auto added = AddDefaultCapability(Capability::CREATE_DELETE_VOLUME, no_create_delete_volume,
                                        "no-create-delete-volume", &options);
      !added.ok()) {
    return added.error();
  }
  if (auto added = AddDefaultCapability(Capability::CREATE_DELETE_SNAPSHOT, no_snapshots,
                                        "no-snapshots", &options);
      !added.ok()) {
    return added.error();
  }
  if (auto added =
          AddDefaultCapability(Capability::LIST_SNAPSHOTS, no_snapshots || no_list_snapshots,
                               no_snapshots ? "no-snapshots" : "no-list-snapshots", &options);
      !added.ok()) {
    return added.error();
  }
  for (const auto& [volume_id, bytes] : volumes) {
    base::Result<int64_t> capacity = base::ParseInt(bytes, 10, 64);
    if (volume_id.empty() || !capacity.ok() || *capacity < 0) {
      return UsageError("--volumes: want ID:BYTES with BYTES >= 0, got \"" + volume_id + ":" +
                        bytes + "\"");
    }
    options.volumes[volume_id] = *capacity;
  }
  if (options.snapshot_size_bytes < 0) return UsageError("--snapshot-size-bytes must be >= 0");
  for (const std::string& segment : SplitList(node_topology)) {
    const size_t equals = segment.find('=');
    if (equals == 0 || equals == std::string::npos) {
      return UsageError("--node-topology: want KEY=VALUE, got \"" + segment + "\"");
    }
    options.node_topology[segment.substr(0, equals)] = segment.substr(equals + 1);
  }
  options.controller_service = !no_controller_service;
  options.group_controller_service = !no_group_snapshots;
  return options;
}

}  // namespace faultdriver
