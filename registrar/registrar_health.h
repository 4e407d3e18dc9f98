// RegistrarHealth: the registrar's /healthz (docs/node-sidecars.md §3.4, §9.1).
// It proves the registration socket answers, as upstream since v2.9.0:
//   socket file missing                 404 "registration socket does not exist"
//   something else there / stat error   500 the error
//   dial fails within --timeout         500 "error connecting to node-registrar socket <p>: <err>"
//   GetInfo fails                       500 "error getting info from node-registrar socket: <err>"
//   GetInfo names another driver        500 "invalid driver name <name>"
// and then, better than upstream (#139), that the driver is still there: a
// driver socket that accepts no connection within --timeout is 500 "lost
// connection to CSI driver at <address>". Else 200 "ok". Both dials are
// bounded by --timeout (upstream's may block 30 s). The calls go through
// csi_lite (no gRPC, §3's memory).
//
// Thread-safety: Check may run on any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <string>

#include "metrics/http_response.h"

namespace registrar {

inline constexpr const char* kSocketMissingBody = "registration socket does not exist";

class RegistrarHealth {
 public:
  // `driver_address` may be empty: then only the registration socket is checked.
  RegistrarHealth(std::string socket_path, std::string driver_name,
                  std::chrono::nanoseconds timeout, std::string driver_address);

  metrics::HttpResponse Check() const;

 private:
  // The registration socket's round trip; empty when it answered as expected.
  std::string CheckRegistrationSocket() const;
  std::string CheckDriver() const;

  const std::string socket_path_;
  const std::string driver_name_;
  const std::chrono::nanoseconds timeout_;
  const std::string driver_address_;
  // The last driver check failed: the next success is logged as a reconnection.
  mutable std::atomic<bool> driver_lost_ = false;
};

}  // namespace registrar
