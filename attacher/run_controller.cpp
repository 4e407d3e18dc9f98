#include "attacher/run_controller.h"

#include <chrono>
#include <memory>
#include <thread>

#include "attacher/attachment_events.h"
#include "attacher/capability_policy.h"
#include "attacher/controller.h"
#include "attacher/csi_handler.h"
#include "attacher/csi_volume_publisher.h"
#include "attacher/kubernetes_api.h"
#include "attacher/reconciler.h"
#include "attacher/trivial_handler.h"
#include "base/clock.h"
#include "base/log.h"
#include "component/event_source.h"
#include "csi/controller_client.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/run_controllers.h"
#include "kube/tools/event_api.h"
#include "kube/tools/event_recorder.h"

namespace attacher {
void RunController(const RunControllerOptions& options, const component::CsiDriver& driver,
                   kube::Client& client, AttacherMetrics& attacher_metrics, std::stop_token stop) {
  base::Clock& clock = base::Clock::Real();
  const csi::Capabilities& caps = driver.capabilities;

  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options.controller.resync_period;
  kube::InformerSet informers(client, reflector_options, clock);
  kube::Store<kube::VolumeAttachment>& volume_attachments =
      informers.StoreOf<kube::VolumeAttachment>();
  kube::Store<kube::PersistentVolume>& persistent_volumes =
      informers.StoreOf<kube::PersistentVolume>();
  // Only a driver that attaches reads CSINodes (for node IDs).
  kube::Store<kube::CSINode> no_csi_nodes;
  kube::Store<kube::CSINode>& csi_nodes =
      CanAttach(caps) ? informers.StoreOf<kube::CSINode>() : no_csi_nodes;
  KubernetesApiClient api(client);
  csi::ControllerClient controller_client(driver.connection);
  CsiVolumePublisher publisher(controller_client, options.timeout);
  kube::ClientEventApi event_api(client);
  kube::EventRecorder event_recorder(event_api, clock, component::EventSource("csi-attacher"));
  RecordedAttachmentEvents attachment_events(event_recorder);

  std::unique_ptr<Handler> handler;
  if (!caps.Has(csi::PluginService::CONTROLLER_SERVICE)) {
    handler = std::make_unique<TrivialHandler>(driver.name, api);
    LOG_V(2, "CSI driver does not support Plugin Controller Service, using trivial handler")
        .With("driver", driver.name);
  } else if (!caps.Has(csi::ControllerRpc::PUBLISH_UNPUBLISH_VOLUME)) {
    handler = std::make_unique<TrivialHandler>(driver.name, api);
    LOG_V(2, "CSI driver does not support ControllerPublishUnpublish, using trivial handler")
        .With("driver", driver.name);
  } else {
    CsiHandler::Options handler_options;
    handler_options.supports_publish_readonly = caps.Has(csi::ControllerRpc::PUBLISH_READONLY);
    handler_options.supports_single_node_multi_writer =
        caps.Has(csi::ControllerRpc::SINGLE_NODE_MULTI_WRITER);
    handler_options.default_fstype = options.default_fstype;
    handler_options.error_code_enabled = options.error_code_enabled;
    handler_options.events = &attachment_events;
    handler = std::make_unique<CsiHandler>(driver.name, volume_attachments, persistent_volumes,
                                           csi_nodes, api, publisher, handler_options, clock);
    LOG_V(2, "CSI driver supports ControllerPublishUnpublish, using real CSI handler")
        .With("driver", driver.name);
  }

  Controller controller(driver.name, *handler, informers, options.controller, clock,
                        &attacher_metrics.volume_attachment_queue(),
                        &attacher_metrics.persistent_volume_queue());
  component::ScrapeRegistrations gauges =
      attacher_metrics.WatchController(controller, volume_attachments, driver.name);

  // The reconciler forces syncs through the CSI handler; the trivial one has
  // nothing to reconcile (upstream's ReconcileVA is a no-op there).
  std::unique_ptr<Reconciler> reconciler;
  std::jthread reconciler_thread;
  if (CanAttach(caps) && CanReconcile(caps)) {
    LOG_V(2,
          "CSI driver supports list volumes published nodes. Using capability to reconcile "
          "volume attachment objects with actual backend state")
        .With("driver", driver.name);
    reconciler = std::make_unique<Reconciler>(
        driver.name, *handler, volume_attachments, persistent_volumes, csi_nodes,
        [&controller_client, max_entries = options.max_entries, timeout = options.timeout] {
          return controller_client.ListVolumes(max_entries, timeout);
        },
        [&controller](const std::string& name) { controller.EnqueueVolumeAttachment(name); },
        options.reconcile_sync, clock);
    reconciler_thread = std::jthread([&controller, &reconciler, stop] {
      if (controller.WaitForCacheSync(stop)) reconciler->Run(stop);
    });
  }

  LOG_INFO("Starting CSI attacher").With("driver", driver.name);
  kube::RunWithInformers(informers, stop, controller);
  if (reconciler_thread.joinable()) reconciler_thread.join();
  LOG_INFO("Shutting CSI attacher").With("driver", driver.name);
}

}  // namespace attacher
