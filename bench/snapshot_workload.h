// SnapshotWorkload: what the snapshot workloads (snapshot_stack.h) share:
// observers of VolumeSnapshots (done = status.readyToUse) and of contents
// (for their deletion), the source volumes the fault driver must know, how
// many answers the driver needs before a snapshot is ready, and the steps
// built on these.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "bench/object_observer.h"
#include "bench/workload.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace bench {

using SnapshotObserver = ObjectObserver<kube::VolumeSnapshot>;
using ContentObserver = ObjectObserver<kube::VolumeSnapshotContent>;

class SnapshotWorkload : public Workload {
 public:
  base::Status StartObserving(kube::Client& admin) override;
  void StopObserving() override;

  // The volume handles of the sources the driver is asked to snapshot (its
  // --volumes; CreateSnapshot of any other source answers NOT_FOUND).
  virtual std::vector<std::string> VolumeHandles() const = 0;
  // The driver's answer that first says ready_to_use (1: the CreateSnapshot).
  virtual int ReadyAfter() const { return 1; }

 protected:
  const SnapshotObserver& snapshots() const { return *snapshots_; }
  const ContentObserver& contents() const { return *contents_; }
  base::Status WaitAllReady(RunContext& ctx, const std::vector<std::string>& names);
  // Until every snapshot and every content named is gone.
  base::Status WaitAllGone(RunContext& ctx, const std::vector<std::string>& snapshots,
                           const std::vector<std::string>& contents);
  // Snapshots source `source` as VolumeSnapshot `name` and waits until it is
  // ready: proves the contender is up and has worked through its initial list.
  base::Status SnapshotOne(RunContext& ctx, const std::string& name, const std::string& source);

 private:
  std::unique_ptr<SnapshotObserver> snapshots_;
  std::unique_ptr<ContentObserver> contents_;
};

base::Result<std::unique_ptr<SnapshotWorkload>> MakeSnapshotWorkload(const BenchOptions& options);

// CreateSource for each name (its own volume handle), on `threads` threads.
base::Status CreateSources(kube::Client& admin, const std::vector<std::string>& names, int threads);

}  // namespace bench
