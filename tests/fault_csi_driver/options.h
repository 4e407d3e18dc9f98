// Command line of fault-csi-driver (Go flag syntax via base::FlagSet, like
// the real drivers it stands in for). See README.md for each flag.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "csi/proto/csi.pb.h"

namespace faultdriver {

struct DriverOptions {
  std::string socket_path;  // from --endpoint
  std::string driver_name;
  std::set<std::string> node_ids;  // empty: every node ID is accepted
  std::chrono::nanoseconds publish_latency{0};
  std::chrono::nanoseconds unpublish_latency{0};
  // --capabilities plus CREATE_DELETE_VOLUME unless --no-create-delete-volume
  // and the snapshot ones unless --no-snapshots / --no-list-snapshots.
  std::vector<csi::v1::ControllerServiceCapability::RPC::Type> capabilities;
  bool controller_service = true;
  bool group_controller_service = true;  // off with --no-group-snapshots
  // --accessible-topology: VOLUME_ACCESSIBILITY_CONSTRAINTS, and volumes are
  // made where the request prefers.
  bool accessible_topology = false;
  // NodeGetInfo's answer: --node-info-id and --node-topology (KEY=VALUE,...;
  // empty: no accessible_topology), so each node of a test has its own.
  std::string node_info_id = "fault-node";
  std::map<std::string, std::string> node_topology;
  std::map<std::string, int64_t> volumes;  // from --volumes: ID -> capacity (0: unknown)
  int64_t snapshot_size_bytes = 0;         // of snapshots whose source has no known capacity
  std::string state_file;
  std::string control_dir;

  bool Advertises(csi::v1::ControllerServiceCapability::RPC::Type type) const;
};

// Errors carry the exit code (2 for usage mistakes, 0 for -help) and have
// already been printed with the usage text where that applies.
base::Result<DriverOptions> ParseDriverOptions(int argc, const char* const* argv);

}  // namespace faultdriver
