#include "attacher/run_controller.h"

#include <optional>
#include <thread>

#include "attacher/attachment_events.h"
#include "attacher/capability_policy.h"
#include "attacher/csi_handler.h"
#include "attacher/csi_volume_publisher.h"
#include "attacher/trivial_handler.h"
#include "base/clock.h"
#include "base/log.h"
#include "component/event_source.h"
#include "kube/runtime/run_controllers.h"
#include "kube/tools/event_api.h"
#include "kube/tools/event_recorder.h"

namespace attacher {
namespace {

std::unique_ptr<Handler> HandlerFor(const RunControllerOptions& options,
                                    const component::CsiDriver& driver,
                                    kube::InformerSet& informers, KubernetesApi& api,
                                    VolumePublisher& publisher, AttachmentEvents& events,
                                    kube::Store<kube::CSINode>& csi_nodes, base::Clock& clock) {
  const csi::Capabilities& caps = driver.capabilities;
  if (!caps.Has(csi::PluginService::CONTROLLER_SERVICE)) {
    LOG_V(2, "CSI driver does not support Plugin Controller Service, using trivial handler")
        .With("driver", driver.name);
    return std::make_unique<TrivialHandler>(driver.name, api);
  }
  if (!caps.Has(csi::ControllerRpc::PUBLISH_UNPUBLISH_VOLUME)) {
    LOG_V(2, "CSI driver does not support ControllerPublishUnpublish, using trivial handler")
        .With("driver", driver.name);
    return std::make_unique<TrivialHandler>(driver.name, api);
  }
  CsiHandler::Options handler_options;
  handler_options.supports_publish_readonly = caps.Has(csi::ControllerRpc::PUBLISH_READONLY);
  handler_options.supports_single_node_multi_writer =
      caps.Has(csi::ControllerRpc::SINGLE_NODE_MULTI_WRITER);
  handler_options.default_fstype = options.default_fstype;
  handler_options.error_code_enabled = options.error_code_enabled;
  handler_options.events = &events;
  LOG_V(2, "CSI driver supports ControllerPublishUnpublish, using real CSI handler")
      .With("driver", driver.name);
  return std::make_unique<CsiHandler>(driver.name, informers.StoreOf<kube::VolumeAttachment>(),
                                      informers.StoreOf<kube::PersistentVolume>(), csi_nodes, api,
                                      publisher, handler_options, clock);
}

}  // namespace

struct Attacher::Parts {
  Parts(const RunControllerOptions& options, const component::CsiDriver& driver,
        kube::Client& client, kube::InformerSet& informers, AttacherMetrics& attacher_metrics)
      : driver_name(driver.name),
        volume_attachments(informers.StoreOf<kube::VolumeAttachment>()),
        persistent_volumes(informers.StoreOf<kube::PersistentVolume>()),
        // Only a driver that attaches reads CSINodes (for node IDs).
        csi_nodes(CanAttach(driver.capabilities) ? informers.StoreOf<kube::CSINode>()
                                                 : no_csi_nodes),
        api(client),
        controller_client(driver.connection),
        publisher(controller_client, options.timeout),
        event_api(client),
        event_recorder(event_api, clock, component::EventSource("csi-attacher")),
        attachment_events(event_recorder),
        handler(HandlerFor(options, driver, informers, api, publisher, attachment_events, csi_nodes,
                           clock)),
        controller(driver.name, *handler, informers, options.controller, clock,
                   &attacher_metrics.volume_attachment_queue(),
                   &attacher_metrics.persistent_volume_queue()),
        gauges(attacher_metrics.WatchController(controller, volume_attachments, driver.name)) {
    // The reconciler forces syncs through the CSI handler; the trivial one has
    // nothing to reconcile (upstream's ReconcileVA is a no-op there).
    if (!CanAttach(driver.capabilities) || !CanReconcile(driver.capabilities)) return;
    LOG_V(2,
          "CSI driver supports list volumes published nodes. Using capability to reconcile "
          "volume attachment objects with actual backend state")
        .With("driver", driver.name);
    reconciler.emplace(
        driver.name, *handler, volume_attachments, persistent_volumes, csi_nodes,
        [this, max_entries = options.max_entries, timeout = options.timeout] {
          return controller_client.ListVolumes(max_entries, timeout);
        },
        [this](const std::string& name) { controller.EnqueueVolumeAttachment(name); },
        options.reconcile_sync, clock);
  }

  base::Clock& clock = base::Clock::Real();
  std::string driver_name;
  kube::Store<kube::CSINode> no_csi_nodes;
  kube::Store<kube::VolumeAttachment>& volume_attachments;
  kube::Store<kube::PersistentVolume>& persistent_volumes;
  kube::Store<kube::CSINode>& csi_nodes;
  KubernetesApiClient api;
  csi::ControllerClient controller_client;
  CsiVolumePublisher publisher;
  kube::ClientEventApi event_api;
  kube::EventRecorder event_recorder;
  RecordedAttachmentEvents attachment_events;
  std::unique_ptr<Handler> handler;
  Controller controller;
  component::ScrapeRegistrations gauges;
  std::optional<Reconciler> reconciler;
};

Attacher::Attacher(const RunControllerOptions& options, const component::CsiDriver& driver,
                   kube::Client& client, kube::InformerSet& informers,
                   AttacherMetrics& attacher_metrics)
    : parts_(std::make_unique<Parts>(options, driver, client, informers, attacher_metrics)) {}

Attacher::~Attacher() = default;

void Attacher::Run(std::stop_token stop) {
  Parts& p = *parts_;
  LOG_INFO("Starting CSI attacher").With("driver", p.driver_name);
  {
    std::jthread reconciler_thread;
    if (p.reconciler) {
      reconciler_thread = std::jthread([&p, stop] {
        if (p.controller.WaitForCacheSync(stop)) p.reconciler->Run(stop);
      });
    }
    p.controller.Run(stop);
  }
  LOG_INFO("Shutting CSI attacher").With("driver", p.driver_name);
}

void RunController(const RunControllerOptions& options, const component::CsiDriver& driver,
                   kube::Client& client, AttacherMetrics& attacher_metrics, std::stop_token stop) {
  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options.controller.resync_period;
  kube::InformerSet informers(client, reflector_options);
  Attacher attacher(options, driver, client, informers, attacher_metrics);
  kube::RunWithInformers(informers, stop, attacher);
}

}  // namespace attacher
