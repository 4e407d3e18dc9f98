// CsiVolumePublisher: VolumePublisher over the driver's Controller service.
// Each call runs under its own `timeout` (--timeout, docs/attacher.md §5.3 step 7,
// §5.4) and reports `migrated` to the metrics hook. Errors are the csi
// layer's (csi/errors.h).
#pragma once

#include <chrono>

#include "attacher/volume_publisher.h"
#include "csi/controller_client.h"

namespace attacher {

class CsiVolumePublisher final : public VolumePublisher {
 public:
  CsiVolumePublisher(csi::ControllerClient& client, std::chrono::nanoseconds timeout)
      : client_(client), timeout_(timeout) {}

  base::Result<std::map<std::string, std::string>> Publish(const PublishRequest& r) override;
  base::Status Unpublish(const UnpublishRequest& r) override;

 private:
  csi::ControllerClient& client_;
  const std::chrono::nanoseconds timeout_;
};

}  // namespace attacher
