// RegistrarHealth: the registrar's /healthz (docs/node-sidecars.md §3.4, §9.1).
// It proves the registration socket answers, as upstream since v2.9.0:
//   socket file missing                 404 "registration socket does not exist"
//   something else there / stat error   500 the error
//   dial fails within --timeout         500 "error connecting to node-registrar socket <p>: <err>"
//   GetInfo fails                       500 "error getting info from node-registrar socket: <err>"
//   GetInfo names another driver        500 "invalid driver name <name>"
// and then, better than upstream (#139), that the driver still answers: a
// driver connection that left READY and does not come back within --timeout
// is 500 "lost connection to CSI driver at <address>". Else 200 "ok".
// The dial is bounded by --timeout (upstream's may block 30 s).
//
// Thread-safety: Check may run on any thread; the driver channel must
// outlive this object.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "metrics/http_response.h"

namespace grpc {
class Channel;
}

namespace registrar {

inline constexpr const char* kSocketMissingBody = "registration socket does not exist";

class RegistrarHealth {
 public:
  // `driver` may be null: then only the registration socket is checked.
  RegistrarHealth(std::string socket_path, std::string driver_name,
                  std::chrono::nanoseconds timeout, std::shared_ptr<grpc::Channel> driver,
                  std::string driver_address);

  metrics::HttpResponse Check() const;

 private:
  // The registration socket's round trip; empty when it answered as expected.
  std::string CheckRegistrationSocket() const;
  std::string CheckDriver() const;

  const std::string socket_path_;
  const std::string driver_name_;
  const std::chrono::nanoseconds timeout_;
  const std::shared_ptr<grpc::Channel> driver_;
  const std::string driver_address_;
};

}  // namespace registrar
