#include "resizer/run_resizer.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/log.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/run_controllers.h"
#include "kube/tools/event_api.h"
#include "kube/tools/event_recorder.h"
#include "resizer/resize_events.h"

namespace resizer {
namespace {

// Whichever of the two controllers the driver's capabilities call for, run
// side by side over the same caches.
struct ResizerControllers {
  std::optional<ResizeController> resize;
  std::optional<ModifyController> modify;

  std::vector<const kube::WorkQueue*> queues() const {
    std::vector<const kube::WorkQueue*> queues;
    if (resize) queues.push_back(&resize->queue());
    if (modify) queues.push_back(&modify->queue());
    return queues;
  }

  void Run(std::stop_token stop) {
    if (!resize && !modify) {  // as upstream's process, idle until stopped
      std::mutex mu;
      std::condition_variable_any stopped;
      std::unique_lock lock(mu);
      stopped.wait(lock, stop, [] { return false; });
      return;
    }
    std::vector<std::jthread> threads;
    if (resize) threads.emplace_back([this, stop] { resize->Run(stop); });
    if (modify) threads.emplace_back([this, stop] { modify->Run(stop); });
  }
};

}  // namespace

struct Resizer::Parts {
  Parts(const RunResizerOptions& options, const component::CsiDriver& driver,
        VolumeExpander* expander, VolumeModifier* modifier, kube::Client& client,
        kube::InformerSet& informers, ResizerMetrics& metrics)
      : driver_name(driver.name),
        api(client),
        event_api(client),
        recorder(event_api, clock, {.component = "external-resizer " + driver.name}),
        events(recorder) {
    if (expander) {
      controllers.resize.emplace(driver.name, options.controller, informers, turns, api, *expander,
                                 events, &metrics.queue(driver.name), clock);
    }
    if (modifier) {
      controllers.modify.emplace(driver.name, options.modify, informers, turns, api, *modifier,
                                 events, &metrics.queue(driver.name), clock);
    }
    gauges = metrics.WatchQueues(controllers.queues());
  }

  base::Clock& clock = base::Clock::Real();
  std::string driver_name;
  ResizerApiClient api;
  kube::ClientEventApi event_api;
  kube::EventRecorder recorder;
  RecordedResizeEvents events;
  ClaimTurns turns;
  ResizerControllers controllers;
  component::ScrapeRegistrations gauges;
};

Resizer::Resizer(const RunResizerOptions& options, const component::CsiDriver& driver,
                 VolumeExpander* expander, VolumeModifier* modifier, kube::Client& client,
                 kube::InformerSet& informers, ResizerMetrics& metrics)
    : parts_(std::make_unique<Parts>(options, driver, expander, modifier, client, informers,
                                     metrics)) {}

Resizer::~Resizer() = default;

void Resizer::Run(std::stop_token stop) {
  LOG_INFO("Starting external resizer").With("driver", parts_->driver_name);
  parts_->controllers.Run(stop);
  LOG_INFO("Shutting down external resizer").With("driver", parts_->driver_name);
}

void RunResizer(const RunResizerOptions& options, const component::CsiDriver& driver,
                VolumeExpander* expander, VolumeModifier* modifier, kube::Client& client,
                ResizerMetrics& metrics, std::stop_token stop) {
  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options.controller.loop.resync_period;
  kube::InformerSet informers(client, reflector_options);
  Resizer resizer(options, driver, expander, modifier, client, informers, metrics);
  kube::RunWithInformers(informers, stop, resizer);
}

}  // namespace resizer
