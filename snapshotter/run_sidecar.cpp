#include "snapshotter/run_sidecar.h"

#include <memory>
#include <thread>

#include "base/clock.h"
#include "base/log.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/runtime/store.h"
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
            kube::Client& snapshots, SnapshotApi& api, kube::EventRecorder& recorder,
            SidecarMetrics& metrics, const std::string& selector, base::Clock& clock)
      : driver_(driver.connection, options.timeout),
        events_(recorder),
        handler_(classes_, api, driver_, events_,
                 {.group_snapshot_name_prefix = options.group_snapshot_name_prefix,
                  .group_snapshot_name_uuid_length = options.group_snapshot_name_uuid_length,
                  .extra_create_metadata = options.extra_create_metadata},
                 clock),
        controller_(driver.name, handler_, contents_, classes_, options.controller, clock,
                    &metrics.group_content_queue()),
        content_source_(snapshots, "", selector),
        class_source_(snapshots, "") {}

  const GroupContentController& controller() const { return controller_; }

  // Runs the controller on a thread of its own until `stop`; Wait() returns
  // once it has stopped.
  void Start(std::stop_token stop) {
    thread_ = std::jthread([this, stop] { controller_.Run(content_source_, class_source_, stop); });
  }
  void Wait() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  kube::Store<kube::VolumeGroupSnapshotContent> contents_;
  kube::Store<kube::VolumeGroupSnapshotClass> classes_;
  CsiGroupSnapshotDriver driver_;
  RecordedGroupContentEvents events_;
  CsiGroupContentHandler handler_;
  GroupContentController controller_;
  kube::ClientListerWatcher<kube::VolumeGroupSnapshotContent> content_source_;
  kube::ClientListerWatcher<kube::VolumeGroupSnapshotClass> class_source_;
  std::jthread thread_;  // last: joins before the rest goes
};

}  // namespace

void RunSidecar(const RunSidecarOptions& options, const component::CsiDriver& driver,
                const snapshot::SnapshotClients& clients, SidecarMetrics& sidecar_metrics,
                std::stop_token stop) {
  base::Clock& clock = base::Clock::Real();
  kube::Store<kube::VolumeSnapshotContent> contents;
  kube::Store<kube::VolumeSnapshotClass> classes;

  SnapshotApiClient api(clients);
  CsiSnapshotDriver snapshot_driver(driver.connection, options.timeout);
  kube::ClientEventApi event_api(*clients.core);
  // Upstream's Events name the component and the driver, and no host.
  kube::EventRecorderOptions event_source;
  event_source.component = "csi-snapshotter " + driver.name;
  kube::EventRecorder event_recorder(event_api, clock, std::move(event_source));
  RecordedContentEvents events(event_recorder);
  CsiContentHandler handler(classes, api, snapshot_driver, events,
                            {.snapshot_name_prefix = options.snapshot_name_prefix,
                             .snapshot_name_uuid_length = options.snapshot_name_uuid_length,
                             .extra_create_metadata = options.extra_create_metadata},
                            clock);
  ContentController controller(driver.name, handler, contents, classes, options.controller, clock,
                               &sidecar_metrics.content_queue());

  // Under --node-deployment upstream filters group contents by the same label.
  const std::string selector =
      options.node_name.empty() ? ""
                                : std::string(snapshot::kManagedByLabel) + "=" + options.node_name;
  std::unique_ptr<GroupSide> groups;
  if (options.group_snapshots) {
    groups = std::make_unique<GroupSide>(options, driver, *clients.snapshots, api, event_recorder,
                                         sidecar_metrics, selector, clock);
  }
  component::ScrapeRegistrations gauges =
      sidecar_metrics.WatchController(controller, groups ? &groups->controller() : nullptr);

  kube::ClientListerWatcher<kube::VolumeSnapshotContent> content_source(*clients.snapshots, "",
                                                                        selector);
  kube::ClientListerWatcher<kube::VolumeSnapshotClass> class_source(*clients.snapshots, "");
  LOG_INFO("Starting CSI snapshotter");
  if (groups) groups->Start(stop);
  controller.Run(content_source, class_source, stop);
  if (groups) groups->Wait();  // it stops on the same token
  LOG_INFO("Shutting CSI snapshotter");
}

}  // namespace snapshotter
