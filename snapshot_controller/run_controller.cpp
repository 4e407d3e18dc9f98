#include "snapshot_controller/run_controller.h"

#include <optional>

#include "base/clock.h"
#include "base/log.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/tools/event_api.h"
#include "kube/tools/event_recorder.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/common_handler.h"
#include "snapshot_controller/controller.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/group_common_handler.h"

namespace snapshot_controller {

void RunController(const RunControllerOptions& options, const snapshot::SnapshotClients& clients,
                   OperationMetrics& metrics, std::stop_token stop) {
  base::Clock& clock = base::Clock::Real();
  ControllerStores stores;
  const GroupCaches group_caches{.group_snapshots = stores.group_snapshots,
                                 .group_contents = stores.group_contents,
                                 .group_classes = stores.group_classes};
  const Caches caches{
      .snapshots = stores.snapshots,
      .contents = stores.contents,
      .classes = stores.classes,
      .claims = stores.claims,
      .volumes = stores.volumes,
      .nodes = options.handler.enable_distributed_snapshotting ? &stores.nodes : nullptr,
      // Off: nothing may consult a group cache (§9.13).
      .groups = options.group_snapshots ? &group_caches : nullptr};

  ControllerApiClient api(clients);
  kube::ClientEventApi event_api(*clients.core);
  // Upstream's Events name the component and no host (§4.2).
  kube::EventRecorderOptions event_source;
  event_source.component = "snapshot-controller";
  kube::EventRecorder event_recorder(event_api, clock, std::move(event_source));
  RecordedControllerEvents events(event_recorder);
  CommonHandler handler(api, caches, events, metrics, options.handler, clock);
  std::optional<GroupCommonHandler> group_handler;
  if (caches.groups) group_handler.emplace(api, caches, events, metrics, clock);
  Controller controller(handler, stores, options.controller, clock,
                        group_handler ? &*group_handler : nullptr);

  kube::Client& snapshots = *clients.snapshots;
  kube::Client& core = *clients.core;
  kube::ClientListerWatcher<kube::VolumeSnapshot> snapshot_source(snapshots, "");
  kube::ClientListerWatcher<kube::VolumeSnapshotContent> content_source(snapshots, "");
  kube::ClientListerWatcher<kube::VolumeSnapshotClass> class_source(snapshots, "");
  kube::ClientListerWatcher<kube::PersistentVolumeClaim> claim_source(core, "");
  kube::ClientListerWatcher<kube::PersistentVolume> volume_source(core, "");
  kube::ClientListerWatcher<kube::Node> node_source(core, "");
  kube::ClientListerWatcher<kube::VolumeGroupSnapshot> group_source(snapshots, "");
  kube::ClientListerWatcher<kube::VolumeGroupSnapshotContent> group_content_source(snapshots, "");
  kube::ClientListerWatcher<kube::VolumeGroupSnapshotClass> group_class_source(snapshots, "");
  const GroupSources group_sources{.group_snapshots = group_source,
                                   .group_contents = group_content_source,
                                   .group_classes = group_class_source};
  LOG_INFO("Starting snapshot controller").With("groupSnapshots", options.group_snapshots);
  controller.Run({.snapshots = snapshot_source,
                  .contents = content_source,
                  .classes = class_source,
                  .claims = claim_source,
                  .volumes = volume_source,
                  .nodes = caches.nodes ? &node_source : nullptr,
                  .groups = caches.groups ? &group_sources : nullptr},
                 stop);
  LOG_INFO("Shutting snapshot controller");
}

}  // namespace snapshot_controller
