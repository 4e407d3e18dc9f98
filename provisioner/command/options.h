// The provisioner's command line (docs/provisioner.md §2.1-§2.3): every flag
// upstream's csi-provisioner accepts, with the same name, type and default,
// so an existing Deployment's args work unchanged: the flags every CSI
// sidecar shares (component/standard_flags.h) plus the provisioner's own.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "base/flags.h"
#include "base/result.h"
#include "component/feature_gates.h"
#include "component/standard_flags.h"

namespace csiprovisioner {

// The gates --feature-gates accepts (§2.3), sorted by name.
inline constexpr std::string_view kTopology = "Topology";
// Removed upstream in v6.2.0 (#1476), where naming it is fatal; accepted here
// as a GA gate locked to true, its behaviour (docs/provisioner.md §9.9).
inline constexpr std::string_view kHonorPVReclaimPolicy = "HonorPVReclaimPolicy";
inline constexpr std::string_view kVolumeAttributesClass = "VolumeAttributesClass";
inline constexpr std::string_view kCrossNamespaceVolumeDataSource =
    "CrossNamespaceVolumeDataSource";
inline constexpr std::string_view kReleaseLeaderElectionOnExit = "ReleaseLeaderElectionOnExit";
const std::vector<component::FeatureSpec>& KnownFeatureSpecs();

struct Options : component::SidecarOptions, component::RetryIntervalOptions {
  std::string volume_name_prefix = "pvc";
  int64_t volume_name_uuid_length = -1;
  int64_t worker_threads = 100;
  int64_t cloning_protection_threads = 1;
  int64_t capacity_threads = 1;
  std::chrono::nanoseconds snapshot_orphan_sweep_interval = std::chrono::minutes(5);
  std::chrono::nanoseconds timeout = std::chrono::seconds(10);
  bool strict_topology = false;
  bool immediate_topology = true;
  bool extra_create_metadata = false;
  std::string default_fstype;
  bool enable_pprof = false;
  bool controller_publish_readonly = false;
  bool prevent_volume_mode_conversion = true;
  bool enable_capacity = false;
  bool capacity_for_immediate_binding = false;
  std::chrono::nanoseconds capacity_poll_interval = std::chrono::minutes(1);
  int64_t capacity_ownerref_level = 1;
  double kube_api_capacity_qps = 1;
  int64_t kube_api_capacity_burst = 5;
  bool node_deployment = false;
  bool node_deployment_immediate_binding = true;
  std::chrono::nanoseconds node_deployment_base_delay = std::chrono::seconds(20);
  std::chrono::nanoseconds node_deployment_max_delay = std::chrono::seconds(60);
  // Ours (§9.9, #1277); upstream has no such flag.
  bool delete_volume_not_found_is_success = false;
};

// Registers every flag on `flags`, writing into `options` (which must outlive
// `flags`).
void RegisterFlags(base::FlagSet& flags, Options& options);
// The provisioner's own flags alone (csi-sidecars registers them prefixed):
// all but the shared sidecar flags and --master.
void RegisterOwnFlags(base::FlagSet& flags, Options& options);

// Values upstream panics on or silently mishandles, refused with a clear
// error (exit 1): --volume-name-prefix empty, --volume-name-uuid-length
// outside -1..32.
base::Status CheckOptions(const Options& options);

}  // namespace csiprovisioner
