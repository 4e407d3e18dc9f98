// The Identity calls livenessprobe makes, over csi_lite::Connection, with
// csi::IdentityClient's semantics (csi/identity_client.h).
#pragma once

#include <chrono>
#include <string>

#include "base/result.h"
#include "csi_lite/connection.h"

namespace csi_lite {

class IdentityClient {
 public:
  explicit IdentityClient(Connection& connection) : connection_(connection) {}

  // One Probe call: whether the driver is ready (a missing `ready` field
  // means ready), or the failed call's error.
  base::Result<bool> Probe(std::chrono::nanoseconds timeout);

  // GetPluginInfo().name; an empty name is the error "driver name is empty".
  base::Result<std::string> GetDriverName(std::chrono::nanoseconds timeout);

 private:
  Connection& connection_;
};

}  // namespace csi_lite
