// What the CSI snapshot drivers (snapshot_driver.h, group_snapshot_driver.h)
// share when they talk to the driver: the Identity client and --timeout
// (docs/snapshots.md §3.1), one operation's deadline, which its pre-call and
// its call spend together, the fields every create request has, and the Unix
// nanoseconds of a CSI Timestamp.
#pragma once

#include <google/protobuf/timestamp.pb.h>

#include <chrono>
#include <cstdint>
#include <optional>

#include "csi/connection.h"
#include "csi/identity_client.h"

namespace snapshotter {

class OperationDeadline {
 public:
  explicit OperationDeadline(std::chrono::nanoseconds timeout)
      : end_(std::chrono::steady_clock::now() + timeout) {}
  std::chrono::nanoseconds Remaining() const { return end_ - std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point end_;
};

// Copies the name, parameters and secrets of our `request` into a CSI
// create request.
template <class CsiRequest, class Request>
void SetCreateFields(const Request& request, CsiRequest& csi_request) {
  csi_request.set_name(request.name);
  csi_request.mutable_parameters()->insert(request.parameters.begin(), request.parameters.end());
  csi_request.mutable_secrets()->insert(request.secrets.begin(), request.secrets.end());
}

// nullopt for a time that does not fit in int64 nanoseconds.
std::optional<int64_t> UnixNanos(const google::protobuf::Timestamp& time);

class CsiDriverCalls {
 protected:
  CsiDriverCalls(csi::Connection& connection, std::chrono::nanoseconds timeout)
      : identity_(connection), timeout_(timeout) {}

  csi::IdentityClient identity_;
  const std::chrono::nanoseconds timeout_;
};

}  // namespace snapshotter
