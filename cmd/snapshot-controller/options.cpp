#include "cmd/snapshot-controller/options.h"

#include "snapshot/feature_gates.h"

namespace snapshotcontroller {

void RegisterFlags(base::FlagSet& flags, Options& o) {
  component::RegisterProcessFlags(flags, o, component::FeatureGates(snapshot::KnownFeatureSpecs()));
  component::RegisterKubeClientFlags(flags, o);
  component::RegisterLeaderElectionFlags(flags, o);
  component::RegisterHttpEndpointFlags(flags, o);
  flags.Duration("resync-period", &o.resync_period, o.resync_period,
                 "How often every cached object is handed to the controller again.");
  flags.Int("worker-threads", &o.worker_threads, o.worker_threads,
            "Number of workers syncing VolumeSnapshots, and as many syncing "
            "VolumeSnapshotContents.");
  component::RegisterRetryIntervalFlags(
      flags, o, "a failed sync of a VolumeSnapshot or VolumeSnapshotContent");
  flags.Duration("retry-crd-interval-max", &o.retry_crd_interval_max, o.retry_crd_interval_max,
                 "How long start-up waits for the VolumeSnapshot CRDs to be served before "
                 "giving up (at least 1s).");
  flags.Bool("enable-distributed-snapshotting", &o.enable_distributed_snapshotting,
             o.enable_distributed_snapshotting,
             "Label each dynamically created VolumeSnapshotContent with the node its volume is "
             "on, for a csi-snapshotter running on every node with --node-deployment.");
  flags.Bool("prevent-volume-mode-conversion", &o.prevent_volume_mode_conversion,
             o.prevent_volume_mode_conversion,
             "Record the source volume's mode in each dynamically created "
             "VolumeSnapshotContent, so that a claim restored from the snapshot cannot change "
             "it without permission.");
}

}  // namespace snapshotcontroller
