// csi-node-driver-registrar's command line (docs/node-sidecars.md §3.1): upstream
// v2.17.0's flags, names, types and defaults. No API, leader-election or
// metrics flags; --mode, --health-port and --connection-timeout are
// deprecated but accepted.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "base/flags.h"
#include "base/result.h"
#include "component/standard_flags.h"
#include "registrar/run_registrar.h"

namespace noderegistrar {

inline constexpr std::string_view kModeRegistrationProbe = "kubelet-registration-probe";

struct Options : component::ProcessOptions {
  std::string csi_address = "/run/csi/socket";
  std::string kubelet_registration_path;
  std::string plugin_registration_path = "/registration";
  std::string mode;
  std::chrono::nanoseconds timeout = std::chrono::seconds(1);
  int64_t health_port = 0;
  std::string http_endpoint;
  bool enable_pprof = false;
  std::chrono::nanoseconds connection_timeout{0};
};

// Registers every flag on `flags`, writing into `options` (which must outlive `flags`).
void RegisterFlags(base::FlagSet& flags, Options& options);

// --kubelet-registration-path is required (upstream's message, exit 1).
base::Status CheckRegistrationPath(const Options& options);
// --health-port > 0 and --http-endpoint exclude each other (exit 1).
base::Status CheckHttpFlags(const Options& options);

// The HTTP address: ":<port>" for --health-port > 0, else --http-endpoint.
std::string HttpAddress(const Options& options);

registrar::RegistrarOptions RegistrarOptionsFrom(const Options& options);

}  // namespace noderegistrar
