#include "snapshotter/run_sidecar.h"

#include <memory>
#include <thread>

#include "base/clock.h"
#include "base/log.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/run_controllers.h"
#include "kube/tools/event_api.h"
#include "kube/tools/event_recorder.h"
#include "snapshot/names.h"
#include "snapshotter/content_events.h"
#include "snapshotter/csi_content_handler.h"
#include "snapshotter/csi_group_content_handler.h"
#include "snapshotter/group_snapshot_driver.h"
#include "snapshotter/snapshot_api.h"
#include "snapshotter/snapshot_driver.h"

namespace snapshotter {
namespace {

// What the sidecar runs for VolumeGroupSnapshotContents (§3.8): upstream
// builds it only with groups on, queue metrics included.
class GroupSide {
 public:
  GroupSide(const RunSidecarOptions& options, const component::CsiDriver& driver,
            kube::InformerSet& informers, SnapshotApi& api, kube::EventRecorder& recorder,
            SidecarMetrics& metrics, const std::string& selector, base::Clock& clock)
      : driver_(driver.connection, options.timeout),
        events_(recorder),
        handler_(informers.StoreOf<kube::VolumeGroupSnapshotClass>(), api, driver_, events_,
                 {.group_snapshot_name_prefix = options.group_snapshot_name_prefix,
                  .group_snapshot_name_uuid_length = options.group_snapshot_name_uuid_length,
                  .extra_create_metadata = options.extra_create_metadata},
                 clock),
        controller_(driver.name, handler_, informers, options.controller, clock,
                    &metrics.group_content_queue(), selector) {}

  GroupContentController& controller() { return controller_; }

 private:
  CsiGroupSnapshotDriver driver_;
  RecordedGroupContentEvents events_;
  CsiGroupContentHandler handler_;
  GroupContentController controller_;
};

}  // namespace

struct Sidecar::Parts {
  Parts(const RunSidecarOptions& options, const component::CsiDriver& driver,
        const snapshot::SnapshotClients& clients, kube::InformerSet& informers,
        SidecarMetrics& sidecar_metrics)
      : api(clients),
        snapshot_driver(driver.connection, options.timeout),
        event_api(*clients.core),
        // Upstream's Events name the component and the driver, and no host.
        event_recorder(event_api, clock, {.component = "csi-snapshotter " + driver.name}),
        events(event_recorder),
        handler(informers.StoreOf<kube::VolumeSnapshotClass>(), api, snapshot_driver, events,
                {.snapshot_name_prefix = options.snapshot_name_prefix,
                 .snapshot_name_uuid_length = options.snapshot_name_uuid_length,
                 .extra_create_metadata = options.extra_create_metadata},
                clock),
        // Under --node-deployment upstream filters contents and group
        // contents by the node's label.
        selector(options.node_name.empty()
                     ? ""
                     : std::string(snapshot::kManagedByLabel) + "=" + options.node_name),
        controller(driver.name, handler, informers, options.controller, clock,
                   &sidecar_metrics.content_queue(), selector) {
    if (options.group_snapshots) {
      groups = std::make_unique<GroupSide>(options, driver, informers, api, event_recorder,
                                           sidecar_metrics, selector, clock);
    }
    gauges = sidecar_metrics.WatchController(controller, groups ? &groups->controller() : nullptr);
  }

  base::Clock& clock = base::Clock::Real();
  SnapshotApiClient api;
  CsiSnapshotDriver snapshot_driver;
  kube::ClientEventApi event_api;
  kube::EventRecorder event_recorder;
  RecordedContentEvents events;
  CsiContentHandler handler;
  std::string selector;
  ContentController controller;
  std::unique_ptr<GroupSide> groups;
  component::ScrapeRegistrations gauges;
};

Sidecar::Sidecar(const RunSidecarOptions& options, const component::CsiDriver& driver,
                 const snapshot::SnapshotClients& clients, kube::InformerSet& informers,
                 SidecarMetrics& sidecar_metrics)
    : parts_(std::make_unique<Parts>(options, driver, clients, informers, sidecar_metrics)) {}

Sidecar::~Sidecar() = default;

void Sidecar::Run(std::stop_token stop) {
  Parts& p = *parts_;
  LOG_INFO("Starting CSI snapshotter");
  {
    std::jthread group_thread;
    if (p.groups) group_thread = std::jthread([&p, stop] { p.groups->controller().Run(stop); });
    p.controller.Run(stop);
  }
  LOG_INFO("Shutting CSI snapshotter");
}

void RunSidecar(const RunSidecarOptions& options, const component::CsiDriver& driver,
                const snapshot::SnapshotClients& clients, SidecarMetrics& sidecar_metrics,
                std::stop_token stop) {
  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options.controller.resync_period;
  kube::InformerSet informers(*clients.snapshots, reflector_options);
  Sidecar sidecar(options, driver, clients, informers, sidecar_metrics);
  kube::RunWithInformers(informers, stop, sidecar);
}

}  // namespace snapshotter
