// VolumePublisher: the two CSI calls the attacher makes per VolumeAttachment,
// in attacher terms. CsiVolumePublisher maps them onto csi::ControllerClient;
// handler tests use a scripted fake. A driver's failure is a gRPC-domain
// base::Error carrying its code; other failures have no code.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "base/result.h"
#include "csi_params/access_modes.h"

namespace attacher {

using csi_params::AccessMode;

struct VolumeCapability {
  bool block = false;  // else mount
  std::string fs_type;
  std::vector<std::string> mount_flags;
  AccessMode access_mode = AccessMode::kUnknown;
};

struct PublishRequest {
  std::string volume_id;
  std::string node_id;
  VolumeCapability capability;
  bool readonly = false;
  std::map<std::string, std::string> secrets;
  std::map<std::string, std::string> volume_context;
  bool migrated = false;  // for the `migrated` metric label
};

struct UnpublishRequest {
  std::string volume_id;
  std::string node_id;
  std::map<std::string, std::string> secrets;
  bool migrated = false;
};

class VolumePublisher {
 public:
  virtual ~VolumePublisher() = default;
  // Returns the publish_context.
  virtual base::Result<std::map<std::string, std::string>> Publish(const PublishRequest& r) = 0;
  virtual base::Status Unpublish(const UnpublishRequest& r) = 0;
};

}  // namespace attacher
