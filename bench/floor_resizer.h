// FloorResizer: the resizer's floor, the least work any resizer must do to
// expand a claim, as a reference no resizer can beat (the floor:
// resize_stack.h). It keeps copies of the claims (as kube::PersistentVolumeClaim)
// and of the PVs (one ObjectWatch each), talks CSI to the driver itself,
// and with the resizer's identity, one client limited to the same QPS/burst
// as the resizers and `workers` threads, expands a Bound claim of the
// benchmark driver whose request exceeds its status.capacity with exactly:
//   1 strategic merge patch of the claim's /status marking it resizing
//     (allocatedResources, the Resizing condition and the state
//     ControllerResizeInProgress, as KEP-1790 requires before the driver is
//     called; with the claim's resourceVersion);
//   ControllerExpandVolume {volume_id, capacity_range.required_bytes};
//   1 strategic merge patch of the PV's spec.capacity;
//   1 strategic merge patch of the claim's /status: capacity, resize
//     conditions and state dropped (with the resourceVersion of the first).
// The patches are built by the resizer's own builders
// (resizer/status_patches.h), so the bytes match what our resizer sends. No
// Events, no ControllerGetCapabilities, no node step (the driver asks for
// none). Its own writes' events sync nothing (kube::ReconcileLoop); a failed
// sync is retried after 5 ms, doubling up to 1 s.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "base/result.h"
#include "bench/floor_cache.h"
#include "bench/object_watch.h"
#include "csi/proto/csi.grpc.pb.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/client/client.h"
#include "kube/runtime/reconcile_loop.h"

namespace bench {

struct FloorResizerOptions {
  int workers = 10;
  std::string csi_socket;
  std::chrono::milliseconds timeout{30000};  // of each CSI call
};

class FloorResizer {
 public:
  // `client` carries the resizer's identity and QPS/burst; it must outlive this.
  static base::Result<std::unique_ptr<FloorResizer>> Start(kube::Client& client,
                                                           FloorResizerOptions options);
  ~FloorResizer();  // stops the watches, then the workers

 private:
  FloorResizer(kube::Client& client, FloorResizerOptions options);
  base::Status StartWatches();
  base::Status Sync(const std::string& key);
  base::Status Expand(const kube::PersistentVolumeClaim& claim,
                      const kube::PersistentVolume& volume);
  // The driver's new capacity in bytes.
  base::Result<int64_t> ControllerExpand(const std::string& volume_id, int64_t bytes);

  kube::Client& client_;
  const FloorResizerOptions options_;
  std::unique_ptr<csi::v1::Controller::Stub> csi_;
  FloorCache<kube::PersistentVolumeClaim> claims_;  // by namespace/name
  FloorCache<kube::PersistentVolume> volumes_;      // by name
  kube::ReconcileLoop pool_;
  std::jthread runner_;
  std::unique_ptr<ObjectWatch<kube::PersistentVolume>> volume_watch_;
  std::unique_ptr<ObjectWatch<kube::PersistentVolumeClaim>> claim_watch_;
};

}  // namespace bench
