#include "bench/snapshot_workload.h"

#include "bench/parallel.h"
#include "bench/snapshot_objects.h"

namespace bench {

std::unique_ptr<SnapshotWorkload> MakeSnapshotBacklog(const BenchOptions& options);
std::unique_ptr<SnapshotWorkload> MakeSnapshotStream(const BenchOptions& options, bool readiness);
std::unique_ptr<SnapshotWorkload> MakeSnapshotScale(const BenchOptions& options);

base::Result<std::unique_ptr<SnapshotWorkload>> MakeSnapshotWorkload(const BenchOptions& options) {
  if (options.workload == "snap-backlog") return MakeSnapshotBacklog(options);
  if (options.workload == "snap-stream") return MakeSnapshotStream(options, false);
  if (options.workload == "snap-readiness") return MakeSnapshotStream(options, true);
  if (options.workload == "snap-scale") return MakeSnapshotScale(options);
  return base::Error("unknown snapshot workload " + options.workload);
}

base::Status SnapshotWorkload::StartObserving(kube::Client& admin) {
  auto snapshots = SnapshotObserver::Start(admin, [](const kube::VolumeSnapshot& snapshot) {
    return snapshot.status && snapshot.status->ready_to_use == true;
  });
  if (!snapshots.ok()) return snapshots.error();
  auto contents = ContentObserver::Start(admin, [](const kube::VolumeSnapshotContent& content) {
    return content.status && content.status->ready_to_use == true;
  });
  if (!contents.ok()) return contents.error();
  snapshots_ = std::move(*snapshots);
  contents_ = std::move(*contents);
  return {};
}

void SnapshotWorkload::StopObserving() {
  snapshots_.reset();
  contents_.reset();
}

base::Status SnapshotWorkload::WaitAllReady(RunContext& ctx,
                                            const std::vector<std::string>& names) {
  return WaitForCount([&] { return snapshots_->CountDone(names); }, names.size(), "ready",
                      std::chrono::seconds(ctx.options.phase_timeout_s));
}

base::Status SnapshotWorkload::WaitAllGone(RunContext& ctx,
                                           const std::vector<std::string>& snapshots,
                                           const std::vector<std::string>& contents) {
  const std::chrono::seconds timeout(ctx.options.phase_timeout_s);
  if (auto status = WaitForCount([&] { return contents_->CountDeleted(contents); }, contents.size(),
                                 "contents gone", timeout);
      !status.ok()) {
    return status;
  }
  return WaitForCount([&] { return snapshots_->CountDeleted(snapshots); }, snapshots.size(),
                      "snapshots gone", timeout);
}

base::Status SnapshotWorkload::SnapshotOne(RunContext& ctx, const std::string& name,
                                           const std::string& source) {
  auto created = CreateVolumeSnapshot(ctx.admin, name, source);
  if (!created.ok()) return created.error();
  return WaitAllReady(ctx, {name});
}

base::Status CreateSources(kube::Client& admin, const std::vector<std::string>& names,
                           int threads) {
  return ForEachParallel(names.size(), threads,
                         [&](size_t i) { return CreateSource(admin, names[i], names[i]); });
}

}  // namespace bench
