#include "bench/floor_controller.h"

#include "attacher/names.h"
#include "attacher/va_status.h"
#include "bench/objects.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/metadata_patch.h"
#include "kube/api/strategic_metadata_patch.h"
#include "kube/client/api_error.h"

namespace bench {

FloorController::FloorController(kube::Client& client, FloorOptions options)
    : client_(client),
      options_(options),
      finalizer_(attacher::FinalizerFor(kDriverName)),
      queue_("floor", base::Clock::Real(), std::chrono::milliseconds(5),
             std::chrono::milliseconds(1000)) {}

base::Result<std::unique_ptr<FloorController>> FloorController::Start(kube::Client& client,
                                                                      FloorOptions options) {
  std::unique_ptr<FloorController> floor(new FloorController(client, options));
  for (int i = 0; i < options.workers; ++i)
    floor->workers_.emplace_back([f = floor.get()] { f->Work(); });
  auto watch = ObjectWatch<kube::VolumeAttachment>::Start(
      client,
      [f = floor.get()](const kube::VolumeAttachment& va, bool deleted) { f->OnVa(va, deleted); });
  if (!watch.ok()) return watch.error();
  floor->watch_ = std::move(*watch);
  return floor;
}

FloorController::~FloorController() {
  watch_.reset();
  queue_.ShutDown();
  workers_.clear();  // joins
}

void FloorController::OnVa(const kube::VolumeAttachment& va, bool deleted) {
  if (va.spec.attacher != kDriverName) return;
  {
    std::lock_guard lock(mu_);
    if (deleted) {
      latest_.erase(va.metadata.name);
      attached_.erase(va.metadata.name);
      return;
    }
    latest_[va.metadata.name] = va;
  }
  queue_.Add(va.metadata.name);
}

void FloorController::Work() {
  while (auto name = queue_.Get()) {
    std::optional<kube::VolumeAttachment> va;
    {
      std::lock_guard lock(mu_);
      if (auto it = latest_.find(*name); it != latest_.end()) va = it->second;
    }
    if (va && !Sync(*va).ok()) {
      queue_.AddRateLimited(*name);
    } else {
      queue_.Forget(*name);
    }
    queue_.Done(*name);
  }
}

base::Status FloorController::Sync(const kube::VolumeAttachment& va) {
  if (!va.metadata.deletion_timestamp.empty()) return Detach(va);
  {
    std::lock_guard lock(mu_);
    if (va.status.attached || attached_.contains(va.metadata.name)) return {};
  }
  return Attach(va);
}

base::Status FloorController::Attach(const kube::VolumeAttachment& va) {
  const std::string& pv = *va.spec.source.persistent_volume_name;
  bool pv_done;
  {
    std::lock_guard lock(mu_);
    pv_done = pvs_with_finalizer_.contains(pv);
  }
  if (!pv_done) {
    auto patched = client_.Patch<kube::PersistentVolume>(
        "", pv, kube::PatchType::kStrategicMerge,
        kube::StrategicMetadataPatch().AddFinalizer(finalizer_).Serialize());
    if (!patched.ok()) return patched.error();
    std::lock_guard lock(mu_);
    pvs_with_finalizer_.insert(pv);
  }
  kube::StrategicMetadataPatch meta;
  if (!kube::HasFinalizer(va.metadata, finalizer_)) meta.AddFinalizer(finalizer_);
  meta.SetAnnotation(attacher::kNodeIdAnnotation, kNodeName);
  auto marked = client_.Patch<kube::VolumeAttachment>(
      "", va.metadata.name, kube::PatchType::kStrategicMerge, meta.Serialize());
  if (!marked.ok()) return marked.error();
  std::this_thread::sleep_for(options_.publish_latency);
  std::string status = attacher::MarkAttachedPatch(va, {{"devicePath", "/dev/fault/" + pv}});
  auto attached = client_.Patch<kube::VolumeAttachment>("", va.metadata.name,
                                                        kube::PatchType::kMerge, status, "status");
  if (!attached.ok()) return attached.error();
  std::lock_guard lock(mu_);
  attached_.insert(va.metadata.name);
  return {};
}

base::Status FloorController::Detach(const kube::VolumeAttachment& va) {
  if (!kube::HasFinalizer(va.metadata, finalizer_)) return {};
  std::this_thread::sleep_for(options_.unpublish_latency);
  auto patched = client_.Patch<kube::VolumeAttachment>(
      "", va.metadata.name, kube::PatchType::kStrategicMerge,
      kube::StrategicMetadataPatch().RemoveFinalizer(finalizer_).Serialize());
  if (!patched.ok() && !kube::IsNotFound(patched.error())) return patched.error();
  return {};
}

}  // namespace bench
