#include "resizer/run_resizer.h"

#include "base/clock.h"
#include "base/log.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/run_controllers.h"
#include "kube/tools/event_api.h"
#include "kube/tools/event_recorder.h"
#include "resizer/resize_controller.h"
#include "resizer/resize_events.h"

namespace resizer {

void RunResizer(const RunResizerOptions& options, const component::CsiDriver& driver,
                VolumeExpander& expander, kube::Client& client, ResizerMetrics& metrics,
                std::stop_token stop) {
  base::Clock& clock = base::Clock::Real();
  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options.controller.loop.resync_period;
  kube::InformerSet informers(client, reflector_options, clock);

  ResizerApiClient api(client);
  kube::ClientEventApi event_api(client);
  kube::EventRecorderOptions source;
  source.component = "external-resizer " + driver.name;
  kube::EventRecorder recorder(event_api, clock, std::move(source));
  RecordedResizeEvents events(recorder);

  ResizeController claims(driver.name, options.controller, informers, api, expander, events,
                          &metrics.queue(driver.name), clock);
  component::ScrapeRegistrations gauges = metrics.WatchQueues({&claims.queue()});

  LOG_INFO("Starting external resizer").With("driver", driver.name);
  kube::RunWithInformers(informers, stop, claims);
  LOG_INFO("Shutting down external resizer").With("driver", driver.name);
}

}  // namespace resizer
