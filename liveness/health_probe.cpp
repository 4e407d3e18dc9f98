#include "liveness/health_probe.h"

#include "base/log.h"
#include "csi_lite/identity_client.h"

namespace liveness {

metrics::HttpResponse AnswerFor(const base::Result<bool>& probe) {
  if (!probe.ok()) return {500, probe.error().message};
  if (!*probe) return {500, std::string(kNotReadyBody)};
  return {200, "ok"};
}

HealthProbe::HealthProbe(std::string csi_address, std::chrono::nanoseconds probe_timeout,
                         csi::MetricsHook metrics)
    : csi_address_(std::move(csi_address)),
      probe_timeout_(probe_timeout),
      metrics_(std::move(metrics)) {}

void HealthProbe::DriverNamed() { driver_named_ = true; }

metrics::HttpResponse HealthProbe::Check() const {
  if (!driver_named_) {
    LOG_ERROR("Health check failed").With("err", kNotConnectedYetBody);
    return {500, std::string(kNotConnectedYetBody)};
  }
  base::Result<bool> probe = ProbeOnce();
  if (!probe.ok()) {
    LOG_ERROR("Health check failed").With("err", probe.error().message);
  } else if (!*probe) {
    LOG_ERROR("Driver responded but is not ready");
  } else {
    LOG_V(5, "Health check succeeded");
  }
  return AnswerFor(probe);
}

base::Result<bool> HealthProbe::ProbeOnce() const {
  // One budget for connect and Probe, as upstream's request context.
  const auto deadline = std::chrono::steady_clock::now() + probe_timeout_;
  csi_lite::ConnectOptions options;
  options.connect_timeout = probe_timeout_;
  options.metrics = metrics_;
  auto connection = csi_lite::Connection::Connect(csi_address_, std::move(options));
  if (!connection.ok()) {
    // Upstream's body is the dial's own error: the context's deadline.
    LOG_ERROR("Failed to establish connection to CSI driver")
        .With("err", connection.error().message);
    return base::Error::Transport("context deadline exceeded");
  }
  LOG_V(5, "Sending probe request to CSI driver");
  auto remaining = std::chrono::duration_cast<std::chrono::nanoseconds>(
      deadline - std::chrono::steady_clock::now());
  if (remaining <= std::chrono::nanoseconds::zero()) {
    return base::Error::Transport("context deadline exceeded");
  }
  csi_lite::IdentityClient identity(**connection);
  return identity.Probe(remaining);
}

}  // namespace liveness
