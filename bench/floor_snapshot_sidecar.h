// FloorSnapshotSidecar: the snapshot floor's sidecar half (the floor:
// snapshot_stack.h). It keeps copies of the contents of the benchmark driver
// (one ObjectWatch), talks CSI to the driver itself, and with the sidecar's
// identity and QPS and `workers` threads issues exactly these writes per
// dynamic content:
//   create: 1 JSON Patch adding the being-created annotation, CreateSnapshot,
//     1 merge patch of the content's status (snapshotter::StatusWithSnapshot:
//     handle, readyToUse, creationTime, restoreSize), 1 JSON Patch removing
//     the annotation; while the snapshot is not ready, CreateSnapshot again
//     every `poll` (its own writes' events poll nothing) and 1 status patch
//     once it is ready;
//   delete (deletionTimestamp and the being-deleted annotation):
//     DeleteSnapshot, 1 JSON Patch removing the content's finalizer.
// A failed sync is retried after 5 ms, doubling up to 1 s.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "base/result.h"
#include "bench/floor_cache.h"
#include "bench/object_watch.h"
#include "csi/proto/csi.grpc.pb.h"
#include "kube/api/json_patch.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/client/client.h"
#include "kube/runtime/reconcile_loop.h"
#include "snapshotter/content_status.h"

namespace bench {

struct FloorSidecarOptions {
  int workers = 10;
  std::string csi_socket;
  std::chrono::milliseconds timeout{30000};  // of each CSI call
  std::chrono::milliseconds poll{1000};      // between CreateSnapshot calls of an unready snapshot
};

class FloorSnapshotSidecar {
 public:
  // `client` carries the sidecar's identity and QPS/burst; it must outlive this.
  static base::Result<std::unique_ptr<FloorSnapshotSidecar>> Start(kube::Client& client,
                                                                   FloorSidecarOptions options);
  ~FloorSnapshotSidecar();  // stops the watch, then the workers

 private:
  FloorSnapshotSidecar(kube::Client& client, FloorSidecarOptions options);
  base::Status Sync(const std::string& name);
  base::Status Create(kube::VolumeSnapshotContent content);
  base::Status Delete(const kube::VolumeSnapshotContent& content);
  base::Result<snapshotter::SnapshotFacts> CreateSnapshot(
      const kube::VolumeSnapshotContent& content);
  // Whether an unready content's next poll is due (so is one never polled).
  bool PollDue(const std::string& name);
  // Sends a JSON Patch (none when empty) and keeps the answer in the cache.
  base::Status PatchContent(kube::VolumeSnapshotContent& content, const kube::JsonPatch& patch);

  kube::Client& client_;
  const FloorSidecarOptions options_;
  std::unique_ptr<csi::v1::Controller::Stub> csi_;
  FloorCache<kube::VolumeSnapshotContent> contents_;  // by name
  std::mutex mu_;
  std::unordered_map<std::string, std::chrono::steady_clock::time_point>
      next_poll_;  // guarded by mu_
  kube::ReconcileLoop pool_;
  std::jthread runner_;
  std::unique_ptr<ObjectWatch<kube::VolumeSnapshotContent>> watch_;
};

}  // namespace bench
