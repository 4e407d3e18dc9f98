#include "cmd/livenessprobe/options.h"

#include <charconv>

namespace livenessprobe {

void RegisterFlags(base::FlagSet& flags, Options& o) {
  component::RegisterAutomaxprocsAndLoggingFlags(flags, o);
  flags.String("csi-address", &o.csi_address, o.csi_address, "Address of the CSI driver socket.");
  flags.Duration("probe-timeout", &o.probe_timeout, o.probe_timeout,
                 "Time one /healthz request may take to connect to the driver and probe it.");
  flags.String("health-port", &o.health_port, o.health_port,
               "Deprecated: TCP port of /healthz on all interfaces. Excludes http-endpoint.");
  flags.String("http-endpoint", &o.http_endpoint, o.http_endpoint,
               "host:port of the HTTP server for /healthz and metrics; replaces health-port. "
               "Excludes health-port and metrics-address.");
  flags.String("metrics-address", &o.metrics_address, o.metrics_address,
               "Deprecated: host:port of an HTTP server for metrics only; empty means no metrics "
               "server. Excludes http-endpoint.");
  flags.String("metrics-path", &o.metrics_path, o.metrics_path,
               "HTTP path at which metrics are served.");
}

base::Status CheckOptions(const Options& o) {
  if (o.health_port != kDefaultHealthPort && !o.http_endpoint.empty()) {
    return base::Error("Only one of `--health-port` and `--http-endpoint` can be explicitly set");
  }
  if (!o.metrics_address.empty() && !o.http_endpoint.empty()) {
    return base::Error(
        "Only one of `--metrics-address` and `--http-endpoint` can be explicitly set");
  }
  if (o.http_endpoint.empty()) {
    int port = -1;
    const char* end = o.health_port.data() + o.health_port.size();
    auto [last, ec] = std::from_chars(o.health_port.data(), end, port);
    if (o.health_port.empty() || ec != std::errc() || last != end || port < 0 || port > 65535) {
      return base::Error("--health-port must be a port number, got \"" + o.health_port + "\"");
    }
  }
  return base::Status::Ok();
}

liveness::LivenessOptions LivenessOptionsFrom(const Options& o) {
  liveness::LivenessOptions out;
  out.csi_address = o.csi_address;
  out.probe_timeout = o.probe_timeout;
  out.health_address = o.http_endpoint.empty() ? "0.0.0.0:" + o.health_port : o.http_endpoint;
  out.metrics_on_health_server = !o.http_endpoint.empty() && o.metrics_address.empty();
  out.metrics_address = o.metrics_address;
  out.metrics_path = o.metrics_path;
  return out;
}

}  // namespace livenessprobe
