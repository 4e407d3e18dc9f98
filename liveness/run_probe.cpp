#include "liveness/run_probe.h"

#include <condition_variable>
#include <memory>
#include <mutex>

#include "base/log.h"
#include "component/csi_operation_metrics.h"
#include "component/exit_codes.h"
#include "csi_lite/identity_client.h"
#include "liveness/health_probe.h"
#include "metrics/http_server.h"
#include "metrics/process_collector.h"
#include "metrics/registry.h"

namespace liveness {
namespace {

// Upstream waits for the driver's socket and name without any limit; a
// year stands in for "forever" where our calls need a deadline.
constexpr auto kForever = std::chrono::hours(24 * 365);

void ServeMetrics(metrics::HttpServer& server, const std::string& path,
                  metrics::Registry& registry) {
  server.Handle(path, [&registry] {
    return metrics::HttpResponse{200, registry.Expose(),
                                 "text/plain; version=0.0.4; charset=utf-8"};
  });
}

void WaitForStop(std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any wake;
  std::unique_lock lock(mu);
  wake.wait(lock, stop, [] { return false; });
}

}  // namespace

int RunLivenessProbe(const LivenessOptions& options, std::stop_token stop) {
  metrics::Registry registry;
  metrics::RegisterProcessCollector(registry);
  component::CsiOperationMetrics operations(registry);
  HealthProbe probe(options.csi_address, options.probe_timeout, operations.Hook());

  std::unique_ptr<metrics::HttpServer> metrics_server;
  if (!options.metrics_address.empty()) {
    auto server = metrics::HttpServer::Start(options.metrics_address);
    if (!server.ok()) {
      LOG_ERROR("Failed to start prometheus metrics endpoint on specified address and path")
          .With("err", server.error().message)
          .With("addr", options.metrics_address)
          .With("path", options.metrics_path);
      return component::kExitFailure;
    }
    metrics_server = std::move(server).value();
    ServeMetrics(*metrics_server, options.metrics_path, registry);
    LOG_INFO("Separate metrics ServeMux listening").With("address", options.metrics_address);
  }
  // Upstream's "main returns 0" when it cannot listen leaves a probe nobody
  // answers in a running container; exit 1 says what is wrong (§9.4).
  auto health_server = metrics::HttpServer::Start(options.health_address);
  if (!health_server.ok()) {
    return component::Fail("Failed to start http server", health_server.error());
  }
  if (options.metrics_on_health_server) {
    ServeMetrics(**health_server, options.metrics_path, registry);
  }
  (*health_server)->Handle("/healthz", [&probe] { return probe.Check(); });
  LOG_INFO("ServeMux listening").With("address", options.health_address);

  csi_lite::ConnectOptions connect;
  connect.connect_timeout = kForever;
  connect.metrics = operations.Hook();
  connect.stop = stop;
  auto connection = csi_lite::Connection::Connect(options.csi_address, std::move(connect));
  if (!connection.ok()) {
    if (stop.stop_requested()) return component::StoppedDuringStartup("connecting to the driver");
    return component::Fail("Failed to establish connection to CSI driver", connection.error());
  }
  LOG_INFO("Calling CSI driver to discover driver name");
  base::Result<std::string> name = csi_lite::IdentityClient(**connection).GetDriverName(kForever);
  connection->reset();
  if (!name.ok()) return component::Fail("Failed to get CSI driver name", name.error());
  LOG_INFO("CSI driver name").With("driver", *name);
  operations.SetDriverName(*name, /*migrated_label=*/false);
  probe.DriverNamed();

  WaitForStop(stop);
  return component::kExitSuccess;
}

}  // namespace liveness
