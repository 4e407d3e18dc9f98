#include "provisioner/run_provisioner.h"

#include <optional>

#include "base/clock.h"
#include "base/hostname.h"
#include "base/log.h"
#include "base/random_uuid.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/runtime/run_controllers.h"
#include "kube/tools/event_api.h"
#include "kube/tools/event_recorder.h"
#include "provisioner/claim_events.h"
#include "provisioner/clone_protection.h"
#include "provisioner/snapshot_sweeper.h"
#include "provisioner/volume_driver.h"
#include "provisioner/volume_events.h"

namespace provisioner {
namespace {

// A controller only some drivers get (upstream makes none otherwise): clone
// protection, the snapshot sweeper.
template <class C>
struct Optional {
  std::optional<C> controller;
  void Run(std::stop_token stop) {
    if (controller) controller->Run(stop);
  }
};

// §3.7: the sweeper runs for a driver that snapshots, when it can list
// VolumeSnapshots.
bool SweepsSnapshots(const component::CsiDriver& driver, kube::Client& client) {
  if (!driver.capabilities.Has(csi::ControllerRpc::CREATE_DELETE_SNAPSHOT)) return false;
  if (base::Status s = SweepableSnapshots(client); !s.ok()) {
    LOG_V(3, "SnapshotFinalizerProtection: disabled").With("err", s.error().message);
    return false;
  }
  return true;
}

// The capacity controller (§5) with its own client: its CSIStorageCapacity
// informer lists and watches only its namespace and labels.
struct CapacityTracker {
  CapacityTracker(const CapacityTracking& tracking, const component::CsiDriver& driver,
                  std::chrono::nanoseconds timeout, kube::InformerSet& informers,
                  ProvisionerMetrics& metrics, base::Clock& clock)
      : source(*tracking.client, tracking.controller.namespace_,
               CapacityLabelSelector(tracking.controller)),
        api(*tracking.client),
        capacity_driver(driver.connection, timeout) {
    informers.UseSource<kube::CSIStorageCapacity>(source,
                                                  CapacityLabelSelector(tracking.controller));
    CapacityOptions options = tracking.controller;
    options.loop.metrics = &metrics.capacity_queue();
    controller.emplace(std::move(options), informers, api, capacity_driver, clock);
    gauges = metrics.WatchCapacity([this] { return controller->Counts(); });
  }
  void Run(std::stop_token stop) { controller->Run(stop); }

  kube::ClientListerWatcher<kube::CSIStorageCapacity> source;
  CapacityApiClient api;
  CsiCapacityDriver capacity_driver;
  std::optional<CapacityController> controller;
  component::ScrapeRegistrations gauges;
};

}  // namespace

void RunProvisioner(const RunProvisionerOptions& options, const component::CsiDriver& driver,
                    kube::Client& client, ProvisionerMetrics& metrics, std::stop_token stop) {
  base::Clock& clock = base::Clock::Real();
  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options.claims.loop.resync_period;
  kube::InformerSet informers(client, reflector_options, clock);

  ProvisionerApiClient api(client);
  CsiVolumeDriver volume_driver(driver.connection, options.timeout);
  kube::ClientEventApi event_api(client);
  // Two sources, as upstream's two recorders: the provisioning library's
  // "<driver>_<host>_<uuid>" for the Events of every attempt and deletion,
  // "external-provisioner" for the populator notice (docs/provisioner.md §3.10).
  base::Result<std::string> host = base::Hostname();
  kube::EventRecorderOptions controller_source;
  controller_source.component =
      driver.name + "_" + (host.ok() ? *host : "") + "_" + base::RandomUuid();
  kube::EventRecorder controller_recorder(event_api, clock, std::move(controller_source));
  kube::EventRecorderOptions provisioner_source;
  provisioner_source.component = "external-provisioner";
  kube::EventRecorder provisioner_recorder(event_api, clock, std::move(provisioner_source));
  RecordedClaimEvents claim_events(controller_recorder, provisioner_recorder);
  RecordedVolumeEvents volume_events(controller_recorder);

  Optional<CapacityTracker> capacity;
  ClaimControllerOptions claim_options = options.claims;
  if (options.capacity) {
    capacity.controller.emplace(*options.capacity, driver, options.timeout, informers, metrics,
                                clock);
    claim_options.capacity = &*capacity.controller->controller;
  }
  ClaimController claims(driver.name, options.identity, driver.capabilities, claim_options,
                         informers, api, volume_driver, claim_events, &metrics, clock);
  VolumeController volumes(
      driver.name,
      {.loop = options.claims.loop,
       .check_attachments = driver.capabilities.Has(csi::ControllerRpc::PUBLISH_UNPUBLISH_VOLUME),
       .capacity = claim_options.capacity,
       .node = options.claims.node},
      informers, api, volume_driver, volume_events, &metrics, clock);
  Optional<CloneProtectionController> clones;
  if (driver.capabilities.Has(csi::ControllerRpc::CLONE_VOLUME)) {
    component::LoopOptions loop = options.claims.loop;
    loop.worker_threads = options.cloning_protection_threads;
    clones.controller.emplace(loop, informers, api, clock);
  }
  Optional<SnapshotSweeper> sweeper;
  if (options.snapshot_orphan_sweep_interval > std::chrono::nanoseconds::zero() &&
      SweepsSnapshots(driver, client)) {
    sweeper.controller.emplace(options.snapshot_orphan_sweep_interval, informers, api, clock);
  }
  component::ScrapeRegistrations gauges = metrics.WatchQueues({&claims.queue(), &volumes.queue()});

  LOG_INFO("Starting provisioner controller").With("component", driver.name);
  kube::RunWithInformers(informers, stop, claims, volumes, clones, sweeper, capacity);
  LOG_INFO("Shutting down provisioner controller").With("component", driver.name);
}

}  // namespace provisioner
