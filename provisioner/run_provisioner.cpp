#include "provisioner/run_provisioner.h"

#include <optional>
#include <thread>
#include <vector>

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

// Everything a Provisioner holds, in the order it is built.
struct Provisioner::Parts {
  Parts(const RunProvisionerOptions& options, const component::CsiDriver& driver,
        kube::Client& client, kube::InformerSet& informers, ProvisionerMetrics& metrics)
      : driver_name(driver.name),
        api(client),
        volume_driver(driver.connection, options.timeout),
        event_api(client),
        controller_recorder(event_api, clock, ControllerSource(driver.name)),
        provisioner_recorder(event_api, clock, {.component = "external-provisioner"}),
        claim_events(controller_recorder, provisioner_recorder),
        volume_events(controller_recorder) {
    ClaimControllerOptions claim_options = options.claims;
    if (options.capacity) {
      capacity.controller.emplace(*options.capacity, driver, options.timeout, informers, metrics,
                                  clock);
      claim_options.capacity = &*capacity.controller->controller;
    }
    claims.emplace(driver.name, options.identity, driver.capabilities, claim_options, informers,
                   api, volume_driver, claim_events, &metrics, clock);
    volumes.emplace(driver.name,
                    VolumeControllerOptions{
                        .loop = options.claims.loop,
                        .check_attachments =
                            driver.capabilities.Has(csi::ControllerRpc::PUBLISH_UNPUBLISH_VOLUME),
                        .capacity = claim_options.capacity,
                        .node = options.claims.node,
                        .not_found_is_deleted = options.delete_not_found_is_success},
                    informers, api, volume_driver, volume_events, &metrics, clock);
    if (driver.capabilities.Has(csi::ControllerRpc::CLONE_VOLUME)) {
      component::LoopOptions loop = options.claims.loop;
      loop.worker_threads = options.cloning_protection_threads;
      clones.controller.emplace(loop, informers, api, clock);
    }
    if (options.snapshot_orphan_sweep_interval > std::chrono::nanoseconds::zero() &&
        SweepsSnapshots(driver, client)) {
      sweeper.controller.emplace(options.snapshot_orphan_sweep_interval, informers, api, clock);
    }
    gauges = metrics.WatchQueues({&claims->queue(), &volumes->queue()});
  }

  // Two sources, as upstream's two recorders: the provisioning library's
  // "<driver>_<host>_<uuid>" for the Events of every attempt and deletion,
  // "external-provisioner" for the populator notice (docs/provisioner.md §3.10).
  static kube::EventRecorderOptions ControllerSource(const std::string& driver_name) {
    base::Result<std::string> host = base::Hostname();
    return {.component = driver_name + "_" + (host.ok() ? *host : "") + "_" + base::RandomUuid()};
  }

  base::Clock& clock = base::Clock::Real();
  std::string driver_name;
  ProvisionerApiClient api;
  CsiVolumeDriver volume_driver;
  kube::ClientEventApi event_api;
  kube::EventRecorder controller_recorder;
  kube::EventRecorder provisioner_recorder;
  RecordedClaimEvents claim_events;
  RecordedVolumeEvents volume_events;
  Optional<CapacityTracker> capacity;
  std::optional<ClaimController> claims;
  std::optional<VolumeController> volumes;
  Optional<CloneProtectionController> clones;
  Optional<SnapshotSweeper> sweeper;
  component::ScrapeRegistrations gauges;
};

Provisioner::Provisioner(const RunProvisionerOptions& options, const component::CsiDriver& driver,
                         kube::Client& client, kube::InformerSet& informers,
                         ProvisionerMetrics& metrics)
    : parts_(std::make_unique<Parts>(options, driver, client, informers, metrics)) {}

Provisioner::~Provisioner() = default;

void Provisioner::Run(std::stop_token stop) {
  Parts& p = *parts_;
  LOG_INFO("Starting provisioner controller").With("component", p.driver_name);
  {
    std::vector<std::jthread> threads;
    threads.emplace_back([&p, stop] { p.claims->Run(stop); });
    threads.emplace_back([&p, stop] { p.volumes->Run(stop); });
    threads.emplace_back([&p, stop] { p.clones.Run(stop); });
    threads.emplace_back([&p, stop] { p.sweeper.Run(stop); });
    threads.emplace_back([&p, stop] { p.capacity.Run(stop); });
  }
  LOG_INFO("Shutting down provisioner controller").With("component", p.driver_name);
}

void RunProvisioner(const RunProvisionerOptions& options, const component::CsiDriver& driver,
                    kube::Client& client, ProvisionerMetrics& metrics, std::stop_token stop) {
  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options.claims.loop.resync_period;
  kube::InformerSet informers(client, reflector_options);
  Provisioner provisioner(options, driver, client, informers, metrics);
  kube::RunWithInformers(informers, stop, provisioner);
}

}  // namespace provisioner
