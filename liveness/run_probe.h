// RunLivenessProbe: livenessprobe after its flags are checked
// (docs/node-sidecars.md §6.2), in our order (§9.4, §9.5): listen first - a
// server that cannot listen ends the process with exit 1, and /healthz
// answers 500 "driver not connected yet" from the first second - then wait
// for the driver's socket without a time limit, ask the driver's name once
// (no deadline; a failure or an empty name is exit 1), close that connection
// and from then on probe the driver afresh on every /healthz request.
// Returns the exit code once `stop` is requested (0) or start-up fails (1).
#pragma once

#include <chrono>
#include <stop_token>
#include <string>

namespace liveness {

struct LivenessOptions {
  std::string csi_address;
  std::chrono::nanoseconds probe_timeout{};
  // Where /healthz is served: --http-endpoint, else 0.0.0.0:<--health-port>.
  std::string health_address;
  // --http-endpoint also carries the metrics.
  bool metrics_on_health_server = false;
  // Deprecated --metrics-address: a metrics-only server; empty: none.
  std::string metrics_address;
  std::string metrics_path = "/metrics";
};

int RunLivenessProbe(const LivenessOptions& options, std::stop_token stop);

}  // namespace liveness
