#include "component/http_endpoint.h"

namespace component {

std::string HttpAddress(const HttpEndpointOptions& options) {
  return options.metrics_address.empty() ? options.http_endpoint : options.metrics_address;
}

base::Status CheckHttpEndpoint(const HttpEndpointOptions& options) {
  if (!options.metrics_address.empty() && !options.http_endpoint.empty()) {
    return base::Error("Only one of `--metrics-address` and `--http-endpoint` can be set");
  }
  return base::Status::Ok();
}

base::Status HttpEndpoint::Start(const HttpEndpointOptions& options, metrics::Registry& registry) {
  const std::string address = HttpAddress(options);
  if (address.empty()) return base::Status::Ok();
  base::Result<std::unique_ptr<metrics::HttpServer>> server = metrics::HttpServer::Start(address);
  if (!server.ok()) return server.error();
  server_ = std::move(server).value();
  server_->Handle(options.metrics_path, [&registry] {
    return metrics::HttpResponse{200, registry.Expose(),
                                 "text/plain; version=0.0.4; charset=utf-8"};
  });
  serves_health_ = !options.http_endpoint.empty();
  return base::Status::Ok();
}

namespace {

metrics::HttpResponse HealthAnswer(const base::Status& status) {
  if (status.ok()) return metrics::HttpResponse{200, "ok"};
  return metrics::HttpResponse{500, "internal server error: " + status.error().message + "\n"};
}

}  // namespace

void HttpEndpoint::ServeLeaderElectionHealth(std::function<base::Status()> check,
                                             const std::string& lease) {
  if (!server_ || !serves_health_) return;
  if (!lease.empty()) {
    server_->Handle("/healthz/leader-election/" + lease, [check] { return HealthAnswer(check()); });
  }
  std::lock_guard lock(*checks_mu_);
  checks_->push_back(std::move(check));
  server_->Handle("/healthz/leader-election", [mu = checks_mu_, checks = checks_] {
    std::lock_guard lock(*mu);
    for (const HealthCheck& each : *checks) {
      if (base::Status status = each(); !status.ok()) return HealthAnswer(status);
    }
    return HealthAnswer(base::Status::Ok());
  });
}

}  // namespace component
