// Provisioner: the last step of start-up (docs/provisioner.md §2.4 step
// 10), built on an InformerSet - the provisioner's own, or one csi-sidecars
// shares between its controllers: the caches (claims, PVs, StorageClasses; VolumeAttachments when
// the driver publishes volumes), the claim and volume controllers with their Events (source
// "external-provisioner") and, for a driver that clones, the clone protection controller (§3.7),
// for a driver that snapshots the sweeper of orphaned snapshot finalizers (§3.7), with
// --enable-capacity the capacity controller (§5), until `stop`; in node deployment (§3.12,
// `claims.node`) both controllers act for that node only, and neither they
// nor capacity tracking watch Nodes or CSINodes. Building registers the
// event handlers; Run() runs the controllers until `stop` and returns once
// they stopped, with in-flight CSI calls finished. The queues report to
// `metrics` while they run.
//
// RunProvisioner is the separate binary's whole run: its own InformerSet, a
// Provisioner on it, both run until `stop`.
#pragma once

#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "component/sidecar_startup.h"
#include "kube/client/client.h"
#include "kube/runtime/informer_set.h"
#include "provisioner/capacity_controller.h"
#include "provisioner/claim_controller.h"
#include "provisioner/provisioner_metrics.h"
#include "provisioner/volume_controller.h"

namespace provisioner {

// Capacity tracking: the controller's options and the client of its writes
// and its CSIStorageCapacity informer (its own QPS budget).
struct CapacityTracking {
  CapacityOptions controller;
  kube::Client* client = nullptr;  // outlives RunProvisioner
};

struct RunProvisionerOptions {
  std::chrono::nanoseconds timeout{std::chrono::seconds(10)};  // each CSI call
  ClaimControllerOptions claims;
  uint32_t cloning_protection_threads = 1;  // --cloning-protection-threads
  // --snapshot-orphan-sweep-interval (§3.7); not positive: no sweeper.
  std::chrono::nanoseconds snapshot_orphan_sweep_interval{std::chrono::minutes(5)};
  // --delete-volume-not-found-is-success (§9.9, #1277).
  bool delete_not_found_is_success = false;
  std::string identity;                      // storage.kubernetes.io/csiProvisionerIdentity
  std::optional<CapacityTracking> capacity;  // --enable-capacity
};

class Provisioner {
 public:
  // `options`, `driver`, `client`, `informers` and `metrics` must outlive it.
  Provisioner(const RunProvisionerOptions& options, const component::CsiDriver& driver,
              kube::Client& client, kube::InformerSet& informers, ProvisionerMetrics& metrics);
  ~Provisioner();
  Provisioner(const Provisioner&) = delete;
  Provisioner& operator=(const Provisioner&) = delete;

  void Run(std::stop_token stop);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

void RunProvisioner(const RunProvisionerOptions& options, const component::CsiDriver& driver,
                    kube::Client& client, ProvisionerMetrics& metrics, std::stop_token stop);

}  // namespace provisioner
