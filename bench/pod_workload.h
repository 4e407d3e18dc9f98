// PodWorkload: what the pod stack's workloads (pod_stack.h) share: the
// observers of the four controllers' work - claims Bound (the provisioner
// made a PV, kube-controller-manager bound it), VolumeAttachments attached,
// PVs grown to kResizeTo, VolumeSnapshotContents readyToUse - the phases
// built on them, each creating its objects at once (--creator-threads in
// flight) and waiting for all to be done, and the contender's watches per
// resource (the API server's open WATCH requests now, less those open just
// before the contender started). MakePodWorkload picks one by --workload:
// pod-mix (pod_mix.cpp) or pod-scale (pod_scale.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "bench/api_requests.h"
#include "bench/object_observer.h"
#include "bench/workload.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace bench {

class PodWorkload : public Workload {
 public:
  // Also takes the baseline of the watches, with the observers' own open.
  base::Status StartObserving(kube::Client& admin) override;
  void StopObserving() override;
  // The four binaries against one: upstream4 and ours4 have no floor.
  bool HasFloor() const override { return false; }

 protected:
  // The phases; each returns its seconds from its first request until the
  // last object was seen done.
  // Claims `names` of the benchmark class; `volumes` gets their PVs' names.
  base::Result<double> Provision(RunContext& ctx, const std::vector<std::string>& names,
                                 std::vector<std::string>& volumes);
  // A VolumeAttachment per PV, named as the PV, on the one CSINode.
  base::Result<double> Attach(RunContext& ctx, const std::vector<std::string>& volumes);
  // Raises each claim's request to kResizeTo; done when its PV has grown.
  base::Result<double> Resize(RunContext& ctx, const std::vector<std::string>& claims,
                              const std::vector<std::string>& volumes);
  // A dynamic VolumeSnapshotContent of each PV's volume, named as the PV.
  base::Result<double> Snapshot(RunContext& ctx, const std::vector<std::string>& volumes);

  // Once the contender's CPU stops growing (IdleSince, at most a minute:
  // a contender that never idles still gets its other figures): idle_s,
  // then the contender's open watches by resource ("watches <resource>"),
  // their total and the most on one resource (watches_max_per_kind).
  base::Result<Figures> IdleAndWatches(RunContext& ctx);

 private:
  std::unique_ptr<ObjectObserver<kube::PersistentVolumeClaim>> claims_;
  std::unique_ptr<ObjectObserver<kube::VolumeAttachment>> attachments_;
  std::unique_ptr<ObjectObserver<kube::PersistentVolume>> grown_;
  std::unique_ptr<ObjectObserver<kube::VolumeSnapshotContent>> contents_;
  WatchCounts baseline_;
};

base::Result<std::unique_ptr<PodWorkload>> MakePodWorkload(const BenchOptions& options);

}  // namespace bench
