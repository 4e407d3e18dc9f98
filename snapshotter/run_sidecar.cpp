#include "snapshotter/run_sidecar.h"

#include "base/clock.h"
#include "base/log.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/runtime/store.h"
#include "kube/tools/event_api.h"
#include "kube/tools/event_recorder.h"
#include "snapshotter/content_events.h"
#include "snapshotter/csi_content_handler.h"
#include "snapshotter/names.h"
#include "snapshotter/snapshot_api.h"
#include "snapshotter/snapshot_driver.h"

namespace snapshotter {

void RunSidecar(const RunSidecarOptions& options, const component::CsiDriver& driver,
                kube::Client& client, SidecarMetrics& sidecar_metrics, std::stop_token stop) {
  base::Clock& clock = base::Clock::Real();
  kube::Store<kube::VolumeSnapshotContent> contents;
  kube::Store<kube::VolumeSnapshotClass> classes;

  SnapshotApiClient api(client);
  CsiSnapshotDriver snapshot_driver(driver.connection, options.timeout);
  kube::ClientEventApi event_api(client);
  // Upstream's Events name the component and the driver, and no host.
  kube::EventRecorderOptions event_source;
  event_source.component = "csi-snapshotter " + driver.name;
  kube::EventRecorder event_recorder(event_api, clock, std::move(event_source));
  RecordedContentEvents events(event_recorder);
  CsiContentHandler handler(driver.name, classes, api, snapshot_driver, events,
                            {.snapshot_name_prefix = options.snapshot_name_prefix,
                             .snapshot_name_uuid_length = options.snapshot_name_uuid_length,
                             .extra_create_metadata = options.extra_create_metadata},
                            clock);
  ContentController controller(driver.name, handler, contents, classes, options.controller, clock,
                               &sidecar_metrics.content_queue());
  component::ScrapeRegistrations gauges = sidecar_metrics.WatchController(controller);

  const std::string selector =
      options.node_name.empty() ? "" : std::string(kManagedByLabel) + "=" + options.node_name;
  kube::ClientListerWatcher<kube::VolumeSnapshotContent> content_source(client, "", selector);
  kube::ClientListerWatcher<kube::VolumeSnapshotClass> class_source(client, "");
  LOG_INFO("Starting CSI snapshotter");
  controller.Run(content_source, class_source, stop);
  LOG_INFO("Shutting CSI snapshotter");
}

}  // namespace snapshotter
