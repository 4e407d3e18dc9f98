// HttpEndpoint: the binary's HTTP server, as csi-lib-utils wires it: metrics
// from one registry at --metrics-path, on --http-endpoint or the deprecated
// --metrics-address (never both), plus /healthz/leader-election when leader
// election runs, served on --http-endpoint only. A process electing for
// several Leases (csi-sidecars) serves each one's check at
// /healthz/leader-election/<lease>, and /healthz/leader-election fails while
// any of them does.
//
// Thread-safety: Start once; ServeLeaderElectionHealth may follow from any
// thread while the server runs. The registry and whatever the health check
// uses must outlive this object.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/result.h"
#include "component/standard_flags.h"
#include "metrics/http_server.h"
#include "metrics/registry.h"

namespace component {

// The address the HTTP server would listen on (metrics-address wins); empty: no server.
std::string HttpAddress(const HttpEndpointOptions& options);

// --metrics-address and --http-endpoint are mutually exclusive.
base::Status CheckHttpEndpoint(const HttpEndpointOptions& options);

class HttpEndpoint {
 public:
  // Serves `registry` when an address is set (else does nothing). The error
  // when the server cannot listen; the binary logs it in its upstream's words.
  base::Status Start(const HttpEndpointOptions& options, metrics::Registry& registry);

  // Serves /healthz/leader-election from `check` ("ok", or 500 with the
  // error), if the server runs on --http-endpoint; with a `lease` name also
  // /healthz/leader-election/<lease> from it alone.
  void ServeLeaderElectionHealth(std::function<base::Status()> check,
                                 const std::string& lease = {});

 private:
  using HealthCheck = std::function<base::Status()>;

  std::unique_ptr<metrics::HttpServer> server_;
  bool serves_health_ = false;
  // The checks of every Lease, shared with the aggregate handler.
  std::shared_ptr<std::mutex> checks_mu_ = std::make_shared<std::mutex>();
  std::shared_ptr<std::vector<HealthCheck>> checks_ = std::make_shared<std::vector<HealthCheck>>();
};

}  // namespace component
