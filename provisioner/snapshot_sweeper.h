// SnapshotSweeper: upstream's SnapshotFinalizerProtection sweep
// (docs/provisioner.md §3.7): every --snapshot-orphan-sweep-interval, first
// right after the caches sync, it takes volumesnapshot-as-source-protection
// off every VolumeSnapshot that no Pending (or phase-less) claim restores
// from - whoever put it there, so a finalizer a provisioner left behind when
// it died mid-restore does not block the snapshot's deletion for ever. The
// claim step of the attempt (claim_controller.h) releases its own snapshot
// on every final outcome; the sweep is the net for what a restart forgot.
//
// Made only for a positive interval and a driver with CREATE_DELETE_SNAPSHOT,
// and only when
// SweepableSnapshots says the ServiceAccount may list VolumeSnapshots and
// the CRD is installed (upstream disables it on Forbidden only, and keeps
// retrying a missing CRD). A failed removal is logged and tried again at the
// next sweep.
//
// Thread-safety: Run() once; Sweep() from one thread at a time.
#pragma once

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>

#include "base/clock.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/runtime/informer_set.h"
#include "provisioner/provisioner_api.h"

namespace provisioner {

// The VolumeSnapshot (namespace, name) a claim restores from: its
// dataSource, else its dataSourceRef (in the namespace it names), of kind
// VolumeSnapshot with no API group or snapshot.storage.k8s.io.
std::optional<std::pair<std::string, std::string>> RestoredSnapshotOf(
    const kube::PersistentVolumeClaim& claim);

// Whether the sweep can run: a list of one VolumeSnapshot succeeds. Says
// why not (logged by the caller) otherwise.
base::Status SweepableSnapshots(kube::Client& client);

class SnapshotSweeper {
 public:
  // The informers of claims and VolumeSnapshots are taken from `informers`.
  SnapshotSweeper(std::chrono::nanoseconds interval, kube::InformerSet& informers,
                  ProvisionerApi& api, base::Clock& clock);

  // Waits for both caches, then sweeps every interval until `stop`.
  void Run(std::stop_token stop);
  // One sweep over the caches; how many finalizers it removed.
  size_t Sweep();

 private:
  const std::chrono::nanoseconds interval_;
  kube::Informer<kube::PersistentVolumeClaim>& claims_;
  kube::Informer<kube::VolumeSnapshot>& snapshots_;
  ProvisionerApi& api_;
  base::Clock& clock_;
};

}  // namespace provisioner
