#include "cmd/csi-node-driver-registrar/options.h"

namespace noderegistrar {

void RegisterFlags(base::FlagSet& flags, Options& o) {
  component::RegisterVersionFlag(flags, o);
  component::RegisterAutomaxprocsAndLoggingFlags(flags, o);
  flags.String("csi-address", &o.csi_address, o.csi_address,
               "Path of the CSI driver socket inside this container.");
  flags.String("kubelet-registration-path", &o.kubelet_registration_path,
               o.kubelet_registration_path,
               "Path of the CSI driver socket on the host, as kubelet reaches it. Required.");
  flags.String("plugin-registration-path", &o.plugin_registration_path, o.plugin_registration_path,
               "Directory kubelet watches for plugin registration sockets (mounted from the "
               "host's /var/lib/kubelet/plugins_registry).");
  flags.String("mode", &o.mode, o.mode,
               "Deprecated. \"kubelet-registration-probe\" checks --kubelet-registration-path and "
               "exits 0 (for old exec probes); anything else registers the driver.");
  flags.Duration("timeout", &o.timeout, o.timeout,
                 "Deadline of each GetPluginInfo call to the driver and of the /healthz check of "
                 "the registration socket.");
  flags.Int("health-port", &o.health_port, o.health_port,
            "Deprecated: TCP port of /healthz on all interfaces; 0 or less means none. Excludes "
            "http-endpoint.");
  flags.String("http-endpoint", &o.http_endpoint, o.http_endpoint,
               "host:port of the HTTP server for /healthz; empty means none. Excludes "
               "health-port.");
  flags.Bool("enable-pprof", &o.enable_pprof, o.enable_pprof,
             "Accepted for compatibility: there is no Go runtime to profile here.");
  flags.Duration("connection-timeout", &o.connection_timeout, o.connection_timeout,
                 "Deprecated; has no effect.");
}

base::Status CheckRegistrationPath(const Options& o) {
  if (o.kubelet_registration_path.empty()) {
    return base::Error("kubelet-registration-path is a required parameter");
  }
  return base::Status::Ok();
}

base::Status CheckHttpFlags(const Options& o) {
  if (o.health_port > 0 && !o.http_endpoint.empty()) {
    return base::Error("Only one of `--health-port` and `--http-endpoint` can be set");
  }
  return base::Status::Ok();
}

std::string HttpAddress(const Options& o) {
  if (o.health_port > 0) return ":" + std::to_string(o.health_port);
  return o.http_endpoint;
}

registrar::RegistrarOptions RegistrarOptionsFrom(const Options& o) {
  registrar::RegistrarOptions out;
  out.csi_address = o.csi_address;
  out.kubelet_registration_path = o.kubelet_registration_path;
  out.plugin_registration_path = o.plugin_registration_path;
  out.timeout = o.timeout;
  out.http_address = HttpAddress(o);
  return out;
}

}  // namespace noderegistrar
