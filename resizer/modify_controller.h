// ModifyController: the csi-resizer's controller of VolumeAttributesClass
// changes (docs/resizer.md §5), on the generic runtime
// (kube/runtime/controller.h) over the claim cache it shares with the resize
// controller; queue "<driver>-pvc" (upstream's two queues share the name),
// keyed <namespace>/<name>.
//
// A claim is queued when it is added, on a resync, and on an update of a
// Bound claim that changes spec.volumeAttributesClassName or has no
// modifyVolumeStatus. A Bound claim of a CSI PV of this driver whose class
// differs from status.currentVolumeAttributesClassName (or whose last
// modification did not finish) is modified, in upstream's order: the claim
// is marked InProgress towards its class (status patch with RV, the
// ModifyingVolume condition), Normal VolumeModify is recorded, the driver
// gets ControllerModifyVolume with the class's parameters; on success the
// PV's class is patched, then the claim's current class (no RV) and Normal
// VolumeModifySuccessful. A missing class marks the claim Pending with
// Warning VolumeModifyFailed. A failed call keeps InProgress (Infeasible for
// InvalidArgument) with the ModifyingVolume and ModifyVolumeError
// conditions, Warning VolumeModifyFailed, and a retry; after a non-final
// error, and for every claim InProgress when the process starts, the
// controller keeps going to the target it had (a user cannot redirect it)
// until the driver gives a final answer. A claim whose class was cleared
// while not InProgress is rolled back: its ModifyingVolume condition goes,
// with Normal VolumeModifyCanceled.
//
// Unlike upstream (docs/resizer.md §9): a class created after a claim went
// Pending for want of it queues that claim at once (upstream waits for a
// change of the claim or a restart), and an Infeasible claim asked again for
// the same class waits out the rest of --retry-interval-max rather than the
// ordinary error backoff.
//
// Thread-safety: Run() once; the runtime never hands one key to two workers
// and the in-memory sets are guarded.
#pragma once

#include <memory>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

#include "base/clock.h"
#include "component/loop_options.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/storage/v1/volume_attributes_class.h"
#include "kube/runtime/controller.h"
#include "kube/runtime/informer_set.h"
#include "resizer/claim_turns.h"
#include "resizer/resize_events.h"
#include "resizer/resizer_api.h"
#include "resizer/slow_set.h"
#include "resizer/volume_modifier.h"

namespace resizer {

struct ModifyControllerOptions {
  component::LoopOptions loop;  // retry_interval_max also bounds the slow set
  // --extra-modify-metadata: the claim's name and namespace and the PV's
  // name added to the mutable parameters.
  bool extra_modify_metadata = false;
};

// §5.1: whether an update of a claim needs a sync (a resync always does).
bool ModifyUpdateNeedsSync(const kube::PersistentVolumeClaim& old_claim,
                           const kube::PersistentVolumeClaim& new_claim);

class ModifyController {
 public:
  using Claim = kube::PersistentVolumeClaim;

  // Everything passed by reference must outlive the controller; `queue_metrics`
  // may be null.
  ModifyController(const std::string& driver_name, const ModifyControllerOptions& options,
                   kube::InformerSet& informers, ClaimTurns& turns, ResizerApi& api,
                   VolumeModifier& modifier, ResizeEvents& events,
                   kube::WorkQueueMetrics* queue_metrics, base::Clock& clock);

  void Run(std::stop_token stop) { controller_.Run(stop); }
  const kube::WorkQueue& queue() const { return controller_.queue(); }

 private:
  kube::ReconcileResult Sync(const std::string& key, const std::shared_ptr<const Claim>& queued);
  kube::ReconcileResult Modify(const std::string& key, const Claim& claim,
                               const kube::PersistentVolume& volume);
  // The claim's class went back to none: drops ModifyingVolume, if any.
  kube::ReconcileResult RollBack(const Claim& claim);
  // The class `name`, or Warning VolumeModifyFailed and an error.
  base::Result<std::shared_ptr<const kube::VolumeAttributesClass>> ClassNamed(
      const Claim& claim, const std::string& name);
  // The driver's call and the writes after it; `claim` is marked InProgress.
  base::Status CallDriver(const std::string& key, const Claim& claim,
                          const kube::PersistentVolume& volume,
                          const kube::VolumeAttributesClass& klass);
  base::Status RecordSuccess(const std::string& key, const Claim& claim,
                             const kube::PersistentVolume& volume,
                             const kube::VolumeAttributesClass& klass);
  base::Status RecordFailure(const std::string& key, const Claim& claim,
                             const kube::VolumeAttributesClass& klass, const base::Error& error);
  kube::StringMap ParametersFor(const Claim& claim, const kube::PersistentVolume& volume,
                                const kube::VolumeAttributesClass& klass) const;
  base::Result<kube::StringMap> SecretsFor(const kube::PersistentVolume& volume);
  // The Pending claims that wait for the class a Change is about.
  std::vector<std::string> ClaimsWaitingFor(
      const kube::Change<kube::VolumeAttributesClass>& change);
  // Whether the claim's modification continues to its old target.
  bool Uncertain(const std::string& key);
  void SetUncertain(const std::string& key, bool uncertain);

  const std::string driver_name_;
  const bool extra_modify_metadata_;
  ClaimTurns& turns_;  // shared with the other controller of the claims
  ResizerApi& api_;
  VolumeModifier& modifier_;
  ResizeEvents& events_;
  base::Clock& clock_;
  kube::Store<kube::PersistentVolume>* volumes_ = nullptr;
  kube::Store<kube::VolumeAttributesClass>* classes_ = nullptr;

  SlowSet slow_;  // claims marked Infeasible

  std::once_flag uncertain_loaded_;
  std::mutex mu_;
  std::set<std::string> uncertain_;  // guarded by mu_

  kube::Controller<Claim> controller_;
};

}  // namespace resizer
