// Sidecar: the last step of start-up (docs/snapshots.md §3.2 step 9), built
// on an InformerSet - the sidecar's own, or one csi-sidecars shares between
// its controllers. Builds the caches, the Kubernetes and CSI sides of the CsiContentHandler,
// its Warning Events (source "csi-snapshotter <driver>") and the
// ContentController; with group snapshots on, the same for
// VolumeGroupSnapshotContents (CsiGroupContentHandler,
// GroupContentController, §3.8) beside it, with as many workers. Run() runs
// them until `stop` and returns once they have stopped, with in-flight CSI
// calls finished (§9.8). The queues report to `sidecar_metrics` while they
// run. Content writes go through `clients.snapshots`, Secret reads and
// Events through `clients.core` (snapshot_clients.h).
//
// RunSidecar is the separate binary's whole run: an InformerSet listing and
// watching through `clients.snapshots`, a Sidecar on it, both until `stop`.
#pragma once

#include <chrono>
#include <memory>
#include <stop_token>
#include <string>

#include "component/sidecar_startup.h"
#include "kube/runtime/informer_set.h"
#include "snapshot/snapshot_clients.h"
#include "snapshotter/content_controller.h"
#include "snapshotter/sidecar_metrics.h"

namespace snapshotter {

// What the snapshotter's flags decide (docs/snapshots.md §3.1).
struct RunSidecarOptions {
  std::chrono::nanoseconds timeout{std::chrono::minutes(1)};  // each snapshot operation
  std::string snapshot_name_prefix = "snapshot";
  int snapshot_name_uuid_length = -1;
  bool extra_create_metadata = false;
  ContentControllerOptions controller;
  // Whether start-up turned group snapshots on (StartGroupSnapshots), and
  // the group snapshot's name (§3.1).
  bool group_snapshots = false;
  std::string group_snapshot_name_prefix = "groupsnapshot";
  int group_snapshot_name_uuid_length = -1;
  // With --node-deployment, this node's name: only the contents (and group
  // contents) labelled as managed by it are watched (snapshot::kManagedByLabel).
  // Empty: all contents.
  std::string node_name;
};

class Sidecar {
 public:
  // Everything given must outlive it.
  Sidecar(const RunSidecarOptions& options, const component::CsiDriver& driver,
          const snapshot::SnapshotClients& clients, kube::InformerSet& informers,
          SidecarMetrics& sidecar_metrics);
  ~Sidecar();
  Sidecar(const Sidecar&) = delete;
  Sidecar& operator=(const Sidecar&) = delete;

  void Run(std::stop_token stop);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

void RunSidecar(const RunSidecarOptions& options, const component::CsiDriver& driver,
                const snapshot::SnapshotClients& clients, SidecarMetrics& sidecar_metrics,
                std::stop_token stop);

}  // namespace snapshotter
