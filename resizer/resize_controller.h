// ResizeController: the csi-resizer's controller of PersistentVolumeClaims
// (docs/resizer.md §4), on the generic runtime (kube/runtime/controller.h),
// queue "<driver>-pvc", keyed <namespace>/<name>.
//
// A claim is queued when it is added, on a resync, and on an update that
// changes the requested size, the storage-resizer annotation, the
// allocatedResourceStatuses[storage], or grows status.capacity. A claim is
// expanded when it is Bound to a PV of this driver (claimRef namespace and
// UID matching) and requests more than its status.capacity; when in-tree
// volumes migrate to the driver, a PV of any source counts as the driver's
// once the claim's storage-resizer annotation names it. The size asked
// is ChooseSize's (size_choice.h); then, in upstream's order, the claim is
// marked Resizing (status patch with RV), Normal Resizing is recorded, the
// driver expands (VolumeExpander), and on success the PV's capacity is
// patched and the claim marked FileSystemResizePending or finished. A
// failure is recorded as Warning VolumeResizeFailed and retried with the
// error backoff; a final error also gets the ControllerResizeError condition,
// and an infeasible one (InvalidArgument, OutOfRange, NotFound) the state
// ControllerResizeInfeasible, after which the same size is not asked again
// for --retry-interval-max (the "slow set"). A lower request after a failure
// is asked at once (recovery, KEP-1790).
//
// With --handle-volume-inuse-error, a claim whose expansion the driver
// refused with FailedPrecondition is not expanded again while a Pod that has
// not ended uses it: Warning VolumeResizeFailed and a retry instead.
//
// Unlike upstream, a driver answering capacity_bytes 0 is a failure: the PV
// keeps its size and the claim is retried; and a claim held by the in-use
// gate is queued again as soon as a Pod using it ends or goes (upstream
// waits for the next retry or resync) (docs/resizer.md §9).
//
// Thread-safety: Run() once; the runtime never hands one key to two workers
// and the in-memory sets are guarded.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>

#include "base/clock.h"
#include "component/loop_options.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/runtime/controller.h"
#include "kube/runtime/informer_set.h"
#include "resizer/claim_pod.h"
#include "resizer/claim_turns.h"
#include "resizer/resize_events.h"
#include "resizer/resizer_api.h"
#include "resizer/size_choice.h"
#include "resizer/slow_set.h"
#include "resizer/status_patches.h"
#include "resizer/volume_expander.h"

namespace resizer {

struct ResizeControllerOptions {
  component::LoopOptions loop;  // retry_interval_max also bounds the slow set
  // The AnnotateFsResize gate: keep the PV's pre-resize-capacity annotation
  // while the node expands (§4.2 step 2, §4.4 step 6).
  bool annotate_fs_resize = true;
  // --handle-volume-inuse-error: the in-use gate of §4.6, with a Pod cache.
  bool handle_in_use_errors = true;
};

// §4.1: whether an update of a claim needs a sync (a resync always does).
bool ClaimUpdateNeedsSync(const kube::PersistentVolumeClaim& old_claim,
                          const kube::PersistentVolumeClaim& new_claim);

class ResizeController {
 public:
  using Claim = kube::PersistentVolumeClaim;

  // Everything passed by reference must outlive the controller; `queue_metrics`
  // may be null.
  ResizeController(const std::string& driver_name, const ResizeControllerOptions& options,
                   kube::InformerSet& informers, ClaimTurns& turns, ResizerApi& api,
                   VolumeExpander& expander, ResizeEvents& events,
                   kube::WorkQueueMetrics* queue_metrics, base::Clock& clock);

  void Run(std::stop_token stop) { controller_.Run(stop); }
  const kube::WorkQueue& queue() const { return controller_.queue(); }

 private:
  kube::ReconcileResult Sync(const std::string& key, const std::shared_ptr<const Claim>& queued);
  bool CanExpand(const Claim& claim, const kube::PersistentVolume& volume) const;
  SizeInputs InputsFor(const std::string& key, const Claim& claim,
                       const kube::PersistentVolume& volume);
  kube::ReconcileResult ExpandAndRecover(const std::string& key, const Claim& claim,
                                         const kube::PersistentVolume& volume);
  // Steps 4-6: the driver's call and the writes after it. `claim` is the
  // claim as marked Resizing; `old_capacity` its status.capacity before.
  base::Status CallDriver(const std::string& key, const Claim& claim,
                          const kube::PersistentVolume& volume, const Size& size,
                          const std::string& old_capacity);
  base::Status RecordFailure(const std::string& key, const Claim& claim, const base::Error& error);
  base::Status RecordSuccess(const std::string& key, const Claim& claim,
                             const kube::PersistentVolume& volume, const Expansion& expansion,
                             const std::string& old_capacity);
  // §4.6: the claim had an in-use refusal and a Pod that has not ended uses it.
  bool HeldByPods(const std::string& key, const Claim& claim);
  // The claims of an ended or deleted Pod that wait for the in-use gate.
  std::vector<std::string> ClaimsFreedBy(const kube::Change<ClaimPod>& change);
  base::Result<kube::StringMap> SecretsFor(const kube::PersistentVolume& volume);
  base::Status DropPreResizeCapacity(const Claim& claim, const kube::PersistentVolume& volume);
  TimePoint Now() const;

  // Drops what the controller remembers of the claim's failures.
  void Forget(const std::string& key);

  const std::string driver_name_;
  const bool migration_target_;  // in-tree volumes migrate to the driver
  const bool annotate_fs_resize_;
  ClaimTurns& turns_;  // shared with the other controller of the claims
  ResizerApi& api_;
  VolumeExpander& expander_;
  ResizeEvents& events_;
  base::Clock& clock_;
  kube::Store<kube::PersistentVolume>* volumes_ = nullptr;
  kube::Store<ClaimPod>* pods_ = nullptr;  // with the in-use gate only

  SlowSet slow_;  // claims marked ControllerResizeInfeasible

  std::mutex mu_;
  std::set<std::string> final_errors_;   // guarded by mu_
  std::set<std::string> in_use_errors_;  // guarded by mu_

  kube::Controller<Claim> controller_;
};

}  // namespace resizer
