// ResizeWorkload: what the resize workloads (resize_stack.h) share: the
// observer of claims (done = status.capacity at least kResizeTo) and the
// steps built on it. MakeResizeWorkload picks one by --workload:
// resize-backlog (resize_backlog.cpp) or resize-pods (resize_pods.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "bench/object_observer.h"
#include "bench/workload.h"
#include "kube/api/core/v1/persistent_volume_claim.h"

namespace bench {

using ResizeClaimObserver = ObjectObserver<kube::PersistentVolumeClaim>;

class ResizeWorkload : public Workload {
 public:
  base::Status StartObserving(kube::Client& admin) override;
  void StopObserving() override { observer_.reset(); }

 protected:
  const ResizeClaimObserver& observer() const { return *observer_; }
  // Raises claim `name` to kResizeTo and waits until it is expanded: proves
  // the contender is up and has worked through its initial lists.
  base::Status ResizeOne(RunContext& ctx, const std::string& name);
  base::Status WaitAllResized(RunContext& ctx, const std::vector<std::string>& names);

 private:
  std::unique_ptr<ResizeClaimObserver> observer_;
};

base::Result<std::unique_ptr<Workload>> MakeResizeWorkload(const BenchOptions& options);

// CreateResizableClaim for each name (resize_objects.h), on `threads` threads.
base::Status CreateResizableClaims(kube::Client& admin, const std::vector<std::string>& names,
                                   int threads);

}  // namespace bench
