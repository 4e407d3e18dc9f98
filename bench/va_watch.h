// VaWatch: lists every VolumeAttachment, then watches from the list's
// resourceVersion on its own thread, resuming a watch the server ends, and
// hands each object to a callback (deleted = it came in a DELETED event).
// Shared by the observer that times attaches and by the floor controller.
// Stops and joins when destroyed.
#pragma once

#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <thread>

#include "base/result.h"
#include "kube/client/client.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace bench {

class VaWatch {
 public:
  using Callback = std::function<void(const kube::VolumeAttachment& va, bool deleted)>;

  // The initial list is handed to `callback` before Start returns.
  static base::Result<std::unique_ptr<VaWatch>> Start(kube::Client& client, Callback callback);
  ~VaWatch();

 private:
  VaWatch(kube::Client& client, Callback callback)
      : client_(client), callback_(std::move(callback)) {}
  void WatchLoop(std::stop_token stop, std::string resource_version);

  kube::Client& client_;
  Callback callback_;
  std::jthread watcher_;
};

}  // namespace bench
