// HealthProbe: livenessprobe's /healthz (docs/node-sidecars.md §6.3). Every check
// opens a fresh connection to the driver (csi_lite/: no gRPC in this binary),
// calls Identity Probe and closes
// the connection, all within --probe-timeout, so a driver whose socket
// vanished or that stopped answering is never reported healthy from an old
// connection (upstream #68). Answers, bodies without a newline:
//   driver not named yet (our start-up, §9.5)  500 "driver not connected yet"
//   connect failed or timed out                500 the connect error
//   Probe failed                               500 "rpc error: code = ... desc = ..."
//   ready=false                                500 "driver responded but is not ready"
//   ready absent or true                       200 "ok"
//
// Thread-safety: Check and DriverNamed may run concurrently from any
// threads; the metrics hook must be thread-safe and outlive this object.
#pragma once

#include <atomic>
#include <chrono>
#include <string>
#include <string_view>

#include "base/result.h"
#include "csi/call_record.h"
#include "metrics/http_response.h"

namespace liveness {

inline constexpr std::string_view kNotReadyBody = "driver responded but is not ready";
inline constexpr std::string_view kNotConnectedYetBody = "driver not connected yet";

// The /healthz answer for one probe's outcome: whether the driver is ready,
// or why the connect or the Probe call failed.
metrics::HttpResponse AnswerFor(const base::Result<bool>& probe);

class HealthProbe {
 public:
  HealthProbe(std::string csi_address, std::chrono::nanoseconds probe_timeout,
              csi::MetricsHook metrics);

  // From now on Check probes the driver; before, it answers 500.
  void DriverNamed();

  // Connects, probes and disconnects; takes at most about --probe-timeout.
  metrics::HttpResponse Check() const;

 private:
  base::Result<bool> ProbeOnce() const;

  const std::string csi_address_;
  const std::chrono::nanoseconds probe_timeout_;
  const csi::MetricsHook metrics_;
  std::atomic<bool> driver_named_ = false;
};

}  // namespace liveness
