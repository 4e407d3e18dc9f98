// Snapshot workload 1, backlog: --n VolumeSnapshots, each of its own source
// claim, exist before the controller and the sidecar start. Figures: seconds
// from the start until the watch showed every snapshot readyToUse, then from
// the first delete until every content (policy Delete: the driver's
// snapshot deleted, the finalizer removed) and every snapshot was gone.
#include <mutex>

#include "bench/parallel.h"
#include "bench/snapshot_objects.h"
#include "bench/snapshot_workload.h"
#include "snapshot_controller/dynamic_content.h"

namespace bench {
namespace {

class SnapshotBacklog : public SnapshotWorkload {
 public:
  explicit SnapshotBacklog(const BenchOptions& options)
      : names_(Names("snap", options.n)), threads_(options.creator_threads) {}

  std::vector<std::string> VolumeHandles() const override { return names_; }
  size_t Objects() const override { return names_.size(); }

  base::Status Populate(kube::Client& admin) override {
    if (auto status = CreateSources(admin, names_, threads_); !status.ok()) return status;
    contents_.assign(names_.size(), "");
    return ForEachParallel(names_.size(), threads_, [&](size_t i) -> base::Status {
      auto snapshot = CreateVolumeSnapshot(admin, names_[i], names_[i]);
      if (!snapshot.ok()) return snapshot.error();
      contents_[i] = snapshot_controller::DynamicContentNameFor(*snapshot);
      return {};
    });
  }

  base::Result<Figures> Measure(RunContext& ctx) override {
    if (auto status = WaitAllReady(ctx, names_); !status.ok()) return status.error();
    double ready_s = SecondsToLast(snapshots().DoneStamps(names_), ctx.started);
    auto delete_start = Clock::now();
    auto deleted = ForEachParallel(names_.size(), ctx.options.creator_threads, [&](size_t i) {
      return DeleteVolumeSnapshot(ctx.admin, names_[i]);
    });
    if (!deleted.ok()) return deleted.error();
    if (auto status = WaitAllGone(ctx, names_, contents_); !status.ok()) return status.error();
    double contents_gone_s = SecondsToLast(contents().DeletedStamps(contents_), delete_start);
    double delete_s =
        std::max(contents_gone_s, SecondsToLast(snapshots().DeletedStamps(names_), delete_start));
    double n = static_cast<double>(names_.size());
    return Figures{{"ready_s", ready_s},
                   {"ready_per_s", n / ready_s},
                   {"contents_gone_s", contents_gone_s},
                   {"delete_s", delete_s},
                   {"wall_s", ready_s + delete_s}};
  }

 private:
  std::vector<std::string> names_;
  std::vector<std::string> contents_;  // of this control plane's snapshots, by index
  int threads_;
};

}  // namespace

std::unique_ptr<SnapshotWorkload> MakeSnapshotBacklog(const BenchOptions& options) {
  return std::make_unique<SnapshotBacklog>(options);
}

}  // namespace bench
