// Calls on the driver's Identity service, with upstream's semantics
// (csi-lib-utils rpc package, docs/attacher.md §2).
#pragma once

#include <chrono>
#include <memory>
#include <stop_token>
#include <string>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/proto/csi.grpc.pb.h"

namespace csi {

class IdentityClient {
 public:
  explicit IdentityClient(Connection& connection);

  // Probes until the driver says it is ready. Each attempt has its own
  // `timeout`. A missing `ready` field means ready; ready=false or
  // DeadlineExceeded means "not yet": wait until 1 s after the attempt began
  // (on the connection's clock) and probe again, forever. Any other failure
  // ends it with "CSI driver probe failed: <error>" (the gRPC code kept);
  // a stop request ends it with a non-gRPC error.
  base::Status ProbeForever(std::chrono::nanoseconds timeout, std::stop_token stop = {});

  // GetPluginInfo().name; an empty name is the error "driver name is empty".
  base::Result<std::string> GetDriverName(std::chrono::nanoseconds timeout);

  base::Result<v1::GetPluginCapabilitiesResponse> GetPluginCapabilities(
      std::chrono::nanoseconds timeout);

  // One Probe call: whether the driver is ready (a missing `ready` field
  // means ready), or the failed call's error.
  base::Result<bool> Probe(std::chrono::nanoseconds timeout);

 private:
  Connection& connection_;
  std::unique_ptr<v1::Identity::Stub> stub_;
};

}  // namespace csi
