#include "bench/pod_workload.h"

#include <algorithm>
#include <functional>
#include <thread>
#include <unordered_map>

#include "bench/objects.h"
#include "bench/parallel.h"
#include "bench/proc_stats.h"
#include "bench/provision_objects.h"
#include "bench/resize_objects.h"
#include "bench/snapshot_objects.h"

namespace bench {

std::unique_ptr<PodWorkload> MakePodMix(const BenchOptions& options);
std::unique_ptr<PodWorkload> MakePodScale(const BenchOptions& options);

base::Result<std::unique_ptr<PodWorkload>> MakePodWorkload(const BenchOptions& options) {
  if (options.workload == "pod-mix") return MakePodMix(options);
  if (options.workload == "pod-scale") return MakePodScale(options);
  return base::Error("unknown pod workload " + options.workload);
}

namespace {

using namespace std::chrono_literals;

// Sends create(i) for every object at once, then waits until `observer` has
// seen every one of `observed` done: the seconds from the first request to
// the last done.
template <class T>
base::Result<double> RunPhase(RunContext& ctx, const ObjectObserver<T>& observer,
                              const std::vector<std::string>& observed, const std::string& what,
                              const std::function<base::Status(size_t)>& create) {
  const auto start = Clock::now();
  if (auto sent = ForEachParallel(observed.size(), ctx.options.creator_threads, create);
      !sent.ok()) {
    return sent.error();
  }
  if (auto done = WaitForCount([&] { return observer.CountDone(observed); }, observed.size(), what,
                               std::chrono::seconds(ctx.options.phase_timeout_s));
      !done.ok()) {
    return done.error();
  }
  return SecondsToLast(observer.DoneStamps(observed), start);
}

}  // namespace

base::Status PodWorkload::StartObserving(kube::Client& admin) {
  auto claims = ObjectObserver<kube::PersistentVolumeClaim>::Start(
      admin, [](const kube::PersistentVolumeClaim& c) { return c.status.phase == "Bound"; });
  if (!claims.ok()) return claims.error();
  claims_ = std::move(*claims);
  auto attachments = ObjectObserver<kube::VolumeAttachment>::Start(
      admin, [](const kube::VolumeAttachment& va) { return va.status.attached; });
  if (!attachments.ok()) return attachments.error();
  attachments_ = std::move(*attachments);
  auto grown =
      ObjectObserver<kube::PersistentVolume>::Start(admin, [](const kube::PersistentVolume& pv) {
        return pv.spec.capacity_storage == std::string(kResizeTo);
      });
  if (!grown.ok()) return grown.error();
  grown_ = std::move(*grown);
  auto contents = ObjectObserver<kube::VolumeSnapshotContent>::Start(
      admin, [](const kube::VolumeSnapshotContent& c) {
        return c.status && c.status->ready_to_use.value_or(false);
      });
  if (!contents.ok()) return contents.error();
  contents_ = std::move(*contents);
  // The observers' watch requests start on their own threads after the list.
  std::this_thread::sleep_for(2s);
  auto baseline = ScrapeWatchCounts(admin);
  if (!baseline.ok()) return baseline.error();
  baseline_ = std::move(*baseline);
  return {};
}

void PodWorkload::StopObserving() {
  claims_.reset();
  attachments_.reset();
  grown_.reset();
  contents_.reset();
}

base::Result<double> PodWorkload::Provision(RunContext& ctx, const std::vector<std::string>& names,
                                            std::vector<std::string>& volumes) {
  volumes.assign(names.size(), "");
  return RunPhase(ctx, *claims_, names, "claims bound", [&](size_t i) -> base::Status {
    auto volume = CreatePendingClaim(ctx.admin, names[i], kResizeClassName);
    if (!volume.ok()) return volume.error();
    volumes[i] = std::move(*volume);
    return {};
  });
}

base::Result<double> PodWorkload::Attach(RunContext& ctx, const std::vector<std::string>& volumes) {
  return RunPhase(ctx, *attachments_, volumes, "attached",
                  [&](size_t i) { return CreateVa(ctx.admin, volumes[i]); });
}

base::Result<double> PodWorkload::Resize(RunContext& ctx, const std::vector<std::string>& claims,
                                         const std::vector<std::string>& volumes) {
  return RunPhase(ctx, *grown_, volumes, "PVs grown",
                  [&](size_t i) { return RequestStorage(ctx.admin, claims[i], kResizeTo); });
}

base::Result<double> PodWorkload::Snapshot(RunContext& ctx,
                                           const std::vector<std::string>& volumes) {
  // The driver chose the handles; the PVs carry them.
  auto pvs = ctx.admin.List<kube::PersistentVolume>("");
  if (!pvs.ok()) return pvs.error().Wrap("listing the PVs");
  std::unordered_map<std::string, std::string> handles;
  for (const auto& pv : pvs->items) {
    if (auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&pv.spec.source)) {
      handles[pv.metadata.name] = csi->volume_handle;
    }
  }
  return RunPhase(ctx, *contents_, volumes, "snapshots ready", [&](size_t i) -> base::Status {
    auto handle = handles.find(volumes[i]);
    if (handle == handles.end()) return base::Error("no CSI PV " + volumes[i]);
    // The PV's name is "pvc-<claim UID>": a UID of its own for each content.
    return CreateDynamicContent(ctx.admin, volumes[i], handle->second, volumes[i].substr(4));
  });
}

base::Result<Figures> PodWorkload::IdleAndWatches(RunContext& ctx) {
  Figures figures;
  if (auto idle = IdleSince(ctx.pids, 60s)) {
    figures.emplace_back("idle_s", Seconds(*idle - ctx.started));
  }
  auto now = ScrapeWatchCounts(ctx.admin);
  if (!now.ok()) return now.error();
  double total = 0, most = 0;
  for (const auto& [resource, count] : *now) {
    auto before = baseline_.find(resource);
    const double own = count - (before == baseline_.end() ? 0 : before->second);
    if (own <= 0) continue;
    figures.emplace_back("watches " + resource, own);
    total += own;
    most = std::max(most, own);
  }
  figures.emplace_back("watches_total", total);
  figures.emplace_back("watches_max_per_kind", most);
  return figures;
}

}  // namespace bench
