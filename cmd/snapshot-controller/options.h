// The snapshot-controller's command line (docs/snapshots.md §4.1): every flag
// upstream's snapshot-controller accepts, with the same name, type and
// default, so an existing Deployment's args work unchanged. Upstream declares
// its own set rather than csi-lib-utils' standardflags: the process, client,
// leader election and HTTP groups of component/standard_flags.h without
// --leader-election-labels and --metrics-address, no --csi-address and no
// --timeout, plus the controller's own flags.
#pragma once

#include <chrono>
#include <cstdint>

#include "base/flags.h"
#include "component/standard_flags.h"

namespace snapshotcontroller {

struct Options : component::ProcessOptions,
                 component::KubeClientOptions,
                 component::LeaderElectionOptions,
                 component::HttpEndpointOptions,
                 component::RetryIntervalOptions {
  std::chrono::nanoseconds resync_period = std::chrono::minutes(15);
  int64_t worker_threads = 10;  // upstream does not validate it
  std::chrono::nanoseconds retry_crd_interval_max = std::chrono::seconds(30);
  bool enable_distributed_snapshotting = false;
  bool prevent_volume_mode_conversion = true;
};

// Registers every flag on `flags`, writing into `options` (which must outlive
// `flags`). The --feature-gates help lists the snapshot gates.
void RegisterFlags(base::FlagSet& flags, Options& options);

}  // namespace snapshotcontroller
