// AttachWorkload: what the attacher's four workloads (backlog, stream, storm,
// scale) share: the VolumeAttachment observer (done = status.attached) and
// the steps built on it. MakeAttachWorkload picks one by --workload.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "bench/object_observer.h"
#include "bench/workload.h"
#include "kube/api/storage/v1/volume_attachment.h"

namespace bench {

using VaObserver = ObjectObserver<kube::VolumeAttachment>;

class AttachWorkload : public Workload {
 public:
  base::Status StartObserving(kube::Client& admin) override;
  void StopObserving() override { observer_.reset(); }

 protected:
  const VaObserver& observer() const { return *observer_; }
  // Creates pair `name` and waits until the contender attached it: proves the
  // contender is up and has worked through its initial list.
  base::Status AttachOne(RunContext& ctx, const std::string& name);
  base::Status WaitAllAttached(RunContext& ctx, const std::vector<std::string>& names);
  base::Status WaitAllDeleted(RunContext& ctx, const std::vector<std::string>& names);

 private:
  std::unique_ptr<VaObserver> observer_;
};

base::Result<std::unique_ptr<Workload>> MakeAttachWorkload(const BenchOptions& options);

// PV + VA pairs, fresh or as left by a completed attach (objects.h).
base::Status CreatePairs(kube::Client& admin, const std::vector<std::string>& names, int threads,
                         bool attached);

}  // namespace bench
