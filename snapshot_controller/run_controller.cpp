#include "snapshot_controller/run_controller.h"

#include <optional>

#include "base/clock.h"
#include "base/log.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/run_controllers.h"
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
  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options.controller.resync_period;
  // Upstream's two clientsets: the built-in kinds on the core client's QPS
  // budget, the snapshot kinds on the snapshot client's.
  kube::Client& snapshots = *clients.snapshots;
  kube::Client& core = *clients.core;
  kube::InformerSet informers(
      [&](const kube::KindFacts& kind) -> kube::Client& {
        return kind.group().empty() ? core : snapshots;
      },
      reflector_options, clock);
  const bool with_nodes = options.handler.enable_distributed_snapshotting;
  std::optional<GroupCaches> group_caches;
  const Caches caches = CachesOf(informers, with_nodes, options.group_snapshots, group_caches);

  ControllerApiClient api(clients);
  kube::ClientEventApi event_api(core);
  // Upstream's Events name the component and no host (§4.2).
  kube::EventRecorderOptions event_source;
  event_source.component = "snapshot-controller";
  kube::EventRecorder event_recorder(event_api, clock, std::move(event_source));
  RecordedControllerEvents events(event_recorder);
  CommonHandler handler(api, caches, events, metrics, options.handler, clock);
  std::optional<GroupCommonHandler> group_handler;
  if (caches.groups) group_handler.emplace(api, caches, events, metrics, clock);
  Controller controller(handler, informers, options.controller, clock, with_nodes,
                        group_handler ? &*group_handler : nullptr);

  LOG_INFO("Starting snapshot controller").With("groupSnapshots", options.group_snapshots);
  kube::RunWithInformers(informers, stop, controller);
  LOG_INFO("Shutting snapshot controller");
}

}  // namespace snapshot_controller
