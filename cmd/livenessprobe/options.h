// livenessprobe's command line (docs/node-sidecars.md §6.1): upstream v2.20.0's
// flags, names, types and defaults. It has no --version, no feature gates and
// no API flags. --health-port is a string as upstream's, but must be a port
// number here (§9.4).
#pragma once

#include <chrono>
#include <string>

#include "base/flags.h"
#include "base/result.h"
#include "component/standard_flags.h"
#include "liveness/run_probe.h"

namespace livenessprobe {

inline constexpr std::string_view kDefaultHealthPort = "9808";

struct Options : component::ProcessOptions {
  std::string csi_address = "/run/csi/socket";
  std::chrono::nanoseconds probe_timeout = std::chrono::seconds(3);
  std::string health_port = std::string(kDefaultHealthPort);
  std::string http_endpoint;
  std::string metrics_address;
  std::string metrics_path = "/metrics";
};

// Registers every flag on `flags`, writing into `options` (which must outlive `flags`).
void RegisterFlags(base::FlagSet& flags, Options& options);

// The checks after parsing (each an exit 1 upstream's words): --health-port
// and --http-endpoint, --metrics-address and --http-endpoint, and a
// --health-port that is no port number.
base::Status CheckOptions(const Options& options);

// What the domain needs, with the health address resolved.
liveness::LivenessOptions LivenessOptionsFrom(const Options& options);

}  // namespace livenessprobe
