// FloorController: the attacher's floor, the least work any attacher must
// do, as a reference no attacher can beat. It watches VolumeAttachments of
// the benchmark driver and, with `workers` threads sharing one client
// limited to the same QPS/burst as the attachers, issues exactly the minimum
// writes:
//   attach: 1 patch adding the PV finalizer (first use of the PV), 1 VA
//           patch (finalizer + node-id annotation), the driver's publish
//           latency (slept: no CSI call), 1 status patch (attached=true);
//   detach: the unpublish latency, 1 patch removing the VA finalizer.
// The patches are built by the attacher's own patch builders, so the bytes
// match what our attacher sends. No retries beyond requeueing a failed VA.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/result.h"
#include "bench/object_watch.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/client/client.h"
#include "kube/runtime/work_queue.h"

namespace bench {

struct FloorOptions {
  int workers = 10;
  std::chrono::milliseconds publish_latency{0};
  std::chrono::milliseconds unpublish_latency{0};
};

class FloorController {
 public:
  // `client` carries the attacher's identity and QPS/burst; it must outlive this.
  static base::Result<std::unique_ptr<FloorController>> Start(kube::Client& client,
                                                              FloorOptions options);
  ~FloorController();  // stops the watch, then the workers

 private:
  FloorController(kube::Client& client, FloorOptions options);
  void OnVa(const kube::VolumeAttachment& va, bool deleted);
  void Work();
  base::Status Sync(const kube::VolumeAttachment& va);
  base::Status Attach(const kube::VolumeAttachment& va);
  base::Status Detach(const kube::VolumeAttachment& va);

  kube::Client& client_;
  const FloorOptions options_;
  const std::string finalizer_;
  kube::WorkQueue queue_;
  std::mutex mu_;
  std::unordered_map<std::string, kube::VolumeAttachment> latest_;  // guarded by mu_
  std::unordered_set<std::string> attached_;                        // guarded by mu_
  std::unordered_set<std::string> pvs_with_finalizer_;              // guarded by mu_
  std::vector<std::jthread> workers_;
  std::unique_ptr<ObjectWatch<kube::VolumeAttachment>> watch_;
};

}  // namespace bench
