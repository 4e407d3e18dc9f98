// VolumeDriver: the CSI calls the provisioner makes per volume
// (docs/provisioner.md §3.8, §4.2 step 4), and the GetCapacity a node
// deployment asks before it takes a claim (§3.12); handler tests use a
// scripted fake.
// CsiVolumeDriver makes them on the driver's Controller service, each within
// `timeout` (--timeout). A driver's failure is a gRPC-domain base::Error
// carrying its code (csi/errors.h); other failures have none. Secrets are
// only ever sent, never logged (the connection's logging strips them).
// `migrated` marks a call for a volume of a migrated in-tree plugin (§3.13):
// the `migrated` label of csi_sidecar_operations_seconds.
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/controller_client.h"
#include "csi/proto/csi.pb.h"

namespace provisioner {

using Secrets = std::map<std::string, std::string>;

class VolumeDriver {
 public:
  virtual ~VolumeDriver() = default;
  virtual base::Result<csi::v1::Volume> CreateVolume(const csi::v1::CreateVolumeRequest& request,
                                                     bool migrated) = 0;
  virtual base::Status DeleteVolume(const std::string& volume_id, const Secrets& secrets,
                                    bool migrated) = 0;
  // available_capacity of the answer.
  virtual base::Result<int64_t> GetCapacity(const csi::v1::GetCapacityRequest& request) = 0;
};

class CsiVolumeDriver final : public VolumeDriver {
 public:
  CsiVolumeDriver(csi::Connection& connection, std::chrono::nanoseconds timeout)
      : controller_(connection), timeout_(timeout) {}

  base::Result<csi::v1::Volume> CreateVolume(const csi::v1::CreateVolumeRequest& request,
                                             bool migrated) override;
  base::Status DeleteVolume(const std::string& volume_id, const Secrets& secrets,
                            bool migrated) override;
  // Within --timeout too, where upstream sets no deadline (§3.12).
  base::Result<int64_t> GetCapacity(const csi::v1::GetCapacityRequest& request) override;

 private:
  csi::ControllerClient controller_;
  const std::chrono::nanoseconds timeout_;
};

}  // namespace provisioner
