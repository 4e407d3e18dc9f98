// RunRegistrar: csi-node-driver-registrar after its flags are checked
// (docs/node-sidecars.md §3.2 steps 5-9, §3.5), until `stop` (SIGTERM):
//   1. connect to the driver (30 s, "Still connecting" every 10 s);
//   2. GetPluginInfo, each attempt under --timeout, retried for up to
//      kDriverNameWindow (§9.3; upstream exits after one 1 s attempt);
//   3. the registration socket <dir>/<driver>-reg.sock: stale socket removed,
//      listened on with mode 0700, re-created if it vanishes (§9.2);
//   4. /healthz on the HTTP address when one is set (§3.4, §9.1);
//   5. on stop: the socket removed (kubelet deregisters the driver), exit 0.
// Every start-up failure is exit 1 with upstream's message.
#pragma once

#include <chrono>
#include <functional>
#include <stop_token>
#include <string>

namespace registrar {

inline constexpr auto kDriverNameWindow = std::chrono::seconds(30);

struct RegistrarOptions {
  std::string csi_address;
  std::string kubelet_registration_path;
  std::string plugin_registration_path;
  std::chrono::nanoseconds timeout{};
  // Empty: no HTTP server.
  std::string http_address;
  // How long GetPluginInfo may be retried at start-up.
  std::chrono::nanoseconds driver_name_window = kDriverNameWindow;
  // kubelet refused the driver (NotifyRegistrationStatus false); empty: exit 1.
  std::function<void()> on_refused;
};

int RunRegistrar(const RegistrarOptions& options, std::stop_token stop);

}  // namespace registrar
