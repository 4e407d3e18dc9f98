// TrivialHandler: for drivers without CONTROLLER_SERVICE or
// PUBLISH_UNPUBLISH_VOLUME (docs/attacher.md §5.6), whose volumes need no attach
// step. It marks each unattached VA without deletionTimestamp as attached,
// with a status merge patch; no finalizers, no CSI calls, and nothing to do
// for PVs or force-syncs. Thread-safe if `api` is.
#pragma once

#include <string>
#include <utility>

#include "attacher/handler.h"
#include "attacher/kubernetes_api.h"

namespace attacher {

class TrivialHandler final : public Handler {
 public:
  TrivialHandler(std::string driver_name, KubernetesApi& api)
      : driver_name_(std::move(driver_name)), api_(api) {}

  base::Status SyncVolumeAttachment(const kube::VolumeAttachment& va) override;
  base::Status SyncPersistentVolume(const kube::PersistentVolume&) override {
    return base::Status::Ok();
  }
  void RequestForceSync(const std::string&) override {}

 private:
  const std::string driver_name_;  // for logs
  KubernetesApi& api_;
};

}  // namespace attacher
