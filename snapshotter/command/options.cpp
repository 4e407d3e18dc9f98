#include "snapshotter/command/options.h"

#include <string>
#include <string_view>

#include "component/loop_options.h"
#include "snapshot/feature_gates.h"

namespace csisnapshotter {

void RegisterFlags(base::FlagSet& flags, Options& o) {
  component::RegisterSidecarFlags(flags, o, component::FeatureGates(snapshot::KnownFeatureSpecs()));
  RegisterOwnFlags(flags, o);
}

void RegisterOwnFlags(base::FlagSet& flags, Options& o) {
  flags.Duration("resync-period", &o.resync_period, o.resync_period,
                 "How often every cached object is handed to the controller again.");
  flags.String("snapshot-name-prefix", &o.snapshot_name_prefix, o.snapshot_name_prefix,
               "Prefix of the name CreateSnapshot is asked for: <prefix>-<VolumeSnapshot UID>.");
  flags.Int("snapshot-name-uuid-length", &o.snapshot_name_uuid_length, o.snapshot_name_uuid_length,
            "Characters of the VolumeSnapshot UID, without its dashes, kept in the snapshot "
            "name (0 to 32); -1 keeps the whole UID with its dashes.");
  flags.Int("worker-threads", &o.worker_threads, o.worker_threads,
            "Number of workers syncing VolumeSnapshotContents.");
  flags.Duration("timeout", &o.timeout, o.timeout,
                 "Deadline of each call to the CSI driver: start-up calls, each readiness probe "
                 "and each snapshot operation.");
  flags.Bool("extra-create-metadata", &o.extra_create_metadata, o.extra_create_metadata,
             "Add the VolumeSnapshot's name and namespace and the VolumeSnapshotContent's name "
             "to the parameters of CreateSnapshot.");
  component::RegisterRetryIntervalFlags(
      flags, o, "a failed snapshot creation or deletion",
      "Also the first interval at which a snapshot that is not ready yet is checked again.");
  flags.Bool("node-deployment", &o.node_deployment, o.node_deployment,
             "Run next to a CSI driver on every node and handle only the "
             "VolumeSnapshotContents labelled as managed by this node (env NODE_NAME). "
             "Excludes leader-election.");
  flags.String("groupsnapshot-name-prefix", &o.groupsnapshot_name_prefix,
               o.groupsnapshot_name_prefix,
               "Prefix of the name CreateVolumeGroupSnapshot is asked for.");
  flags.Int("groupsnapshot-name-uuid-length", &o.groupsnapshot_name_uuid_length,
            o.groupsnapshot_name_uuid_length,
            "Characters of the VolumeGroupSnapshot UID, without its dashes, kept in the group "
            "snapshot name (0 to 32); -1 keeps the whole UID with its dashes.");
}

base::Status CheckNodeDeployment(const Options& options) {
  if (options.node_deployment && options.leader_election) {
    return base::Error("Leader election cannot happen when node-deployment is set to true");
  }
  return base::Status::Ok();
}

namespace {

// A UID without its dashes has 32 characters; -1 keeps it whole (§9.9).
base::Status CheckUuidLength(std::string_view flag, int64_t length) {
  if (length < -1 || length > 32) {
    return base::Error("Option -" + std::string(flag) + " must be between -1 and 32, not " +
                       std::to_string(length));
  }
  return base::Status::Ok();
}

}  // namespace

base::Status CheckSnapshotName(const Options& options) {
  if (options.snapshot_name_prefix.empty()) {
    return base::Error("Snapshot name prefix cannot be of length 0");
  }
  if (base::Status s =
          CheckUuidLength("snapshot-name-uuid-length", options.snapshot_name_uuid_length);
      !s.ok()) {
    return s;
  }
  return CheckUuidLength("groupsnapshot-name-uuid-length", options.groupsnapshot_name_uuid_length);
}

snapshotter::RunSidecarOptions SidecarOptionsFrom(const Options& options, std::string node_name) {
  snapshotter::RunSidecarOptions out;
  out.timeout = options.timeout;
  out.snapshot_name_prefix = options.snapshot_name_prefix;
  out.snapshot_name_uuid_length = static_cast<int>(options.snapshot_name_uuid_length);
  out.extra_create_metadata = options.extra_create_metadata;
  out.group_snapshot_name_prefix = options.groupsnapshot_name_prefix;
  out.group_snapshot_name_uuid_length = static_cast<int>(options.groupsnapshot_name_uuid_length);
  out.controller =
      component::LoopOptionsFrom(options.worker_threads, options, options.resync_period);
  out.node_name = std::move(node_name);
  return out;
}

}  // namespace csisnapshotter
