// The snapshotter's command line (docs/snapshots.md §3.1): every flag
// upstream's csi-snapshotter accepts, with the same name, type and default,
// so an existing Deployment's args work unchanged: the sidecar flags every
// CSI sidecar shares (component/standard_flags.h) plus the snapshotter's own.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "base/flags.h"
#include "base/result.h"
#include "component/standard_flags.h"
#include "snapshotter/run_sidecar.h"

namespace csisnapshotter {

struct Options : component::SidecarOptions, component::RetryIntervalOptions {
  std::chrono::nanoseconds resync_period = std::chrono::minutes(15);
  std::string snapshot_name_prefix = "snapshot";
  int64_t snapshot_name_uuid_length = -1;
  int64_t worker_threads = 10;  // upstream does not validate it
  std::chrono::nanoseconds timeout = std::chrono::minutes(1);
  bool extra_create_metadata = false;
  bool node_deployment = false;
  std::string groupsnapshot_name_prefix = "groupsnapshot";
  int64_t groupsnapshot_name_uuid_length = -1;
};

// Registers every flag on `flags`, writing into `options` (which must outlive
// `flags`). The --feature-gates help lists the snapshotter's gates.
void RegisterFlags(base::FlagSet& flags, Options& options);
// The snapshotter's own flags alone (csi-sidecars registers them prefixed).
void RegisterOwnFlags(base::FlagSet& flags, Options& options);

// --node-deployment excludes --leader-election (upstream's message; exit 1).
base::Status CheckNodeDeployment(const Options& options);

// The snapshot name flags: an empty --snapshot-name-prefix is upstream's
// error; a --snapshot-name-uuid-length or --groupsnapshot-name-uuid-length
// outside -1..32, on which upstream panics at the first (group) snapshot, is
// ours (§9.9). All exit 1.
base::Status CheckSnapshotName(const Options& options);

// What the flags decide for the sidecar (its group snapshots are decided
// once the driver is known).
snapshotter::RunSidecarOptions SidecarOptionsFrom(const Options& options, std::string node_name);

}  // namespace csisnapshotter
