#include "resizer/resize_controller.h"

#include <grpcpp/support/status.h>

#include <utility>

#include "base/log.h"
#include "base/quantity.h"
#include "base/strconv.h"
#include "migration/drivers.h"
#include "resizer/claim_queue.h"
#include "resizer/claim_turns.h"
#include "resizer/grpc_error_kinds.h"
#include "resizer/names.h"
#include "resizer/status_patches.h"

namespace resizer {
namespace {

int64_t BytesOr0(std::string_view quantity) {
  if (quantity.empty()) return 0;
  base::Result<int64_t> bytes = base::QuantityAsInt64(quantity);
  return bytes.ok() ? *bytes : 0;
}

bool NeedsResize(const kube::PersistentVolumeClaim& claim) {
  return claim.status.phase == "Bound" && !claim.spec.volume_name.empty() &&
         BytesOr0(claim.spec.requests_storage) > BytesOr0(claim.status.capacity_storage);
}

std::string ClaimName(const kube::PersistentVolumeClaim& claim) {
  return claim.metadata.namespace_ + "/" + claim.metadata.name;
}

// The storage-resizer annotation: "" when absent.
std::string_view ResizerOf(const kube::PersistentVolumeClaim& claim) {
  auto it = claim.metadata.annotations.find(kStorageResizerAnnotation);
  return it == claim.metadata.annotations.end() ? std::string_view() : it->second;
}

}  // namespace

bool ClaimUpdateNeedsSync(const kube::PersistentVolumeClaim& old_claim,
                          const kube::PersistentVolumeClaim& new_claim) {
  return BytesOr0(old_claim.spec.requests_storage) != BytesOr0(new_claim.spec.requests_storage) ||
         ResizerOf(old_claim) != ResizerOf(new_claim) ||
         BytesOr0(new_claim.status.capacity_storage) >
             BytesOr0(old_claim.status.capacity_storage) ||
         old_claim.status.allocated_storage_status != new_claim.status.allocated_storage_status;
}

ResizeController::ResizeController(const std::string& driver_name,
                                   const ResizeControllerOptions& options,
                                   kube::InformerSet& informers, ClaimTurns& turns, ResizerApi& api,
                                   VolumeExpander& expander, ResizeEvents& events,
                                   kube::WorkQueueMetrics* queue_metrics, base::Clock& clock)
    : driver_name_(driver_name),
      migration_target_(migration::IsMigratedCsiDriverByName(driver_name)),
      annotate_fs_resize_(options.annotate_fs_resize),
      turns_(turns),
      api_(api),
      expander_(expander),
      events_(events),
      clock_(clock),
      slow_(clock, options.loop.retry_interval_max),
      controller_(
          informers, ClaimQueueOptions(driver_name, options.loop, queue_metrics),
          {.update_needs_sync = ClaimUpdateNeedsSync},
          [this](const std::string& key, const std::shared_ptr<const Claim>& claim) {
            return Sync(key, claim);
          },
          clock) {
  volumes_ = &controller_.Reads<kube::PersistentVolume>();
  if (options.handle_in_use_errors) {
    controller_.Watches<ClaimPod>(
        [this](const kube::Change<ClaimPod>& change) { return ClaimsFreedBy(change); });
    pods_ = &controller_.Reads<ClaimPod>();
  }
}

std::vector<std::string> ResizeController::ClaimsFreedBy(const kube::Change<ClaimPod>& change) {
  const bool freed = change.type == kube::Change<ClaimPod>::Type::kDeleted ||
                     (change.object.Ended() && change.old_object && !change.old_object->Ended());
  if (!freed) return {};
  std::vector<std::string> keys;
  std::lock_guard lock(mu_);
  for (const ClaimPodVolume& volume : change.object.spec.volumes) {
    std::string key = change.object.metadata.namespace_ + "/" + volume.claim_name;
    if (!volume.claim_name.empty() && in_use_errors_.contains(key)) keys.push_back(std::move(key));
  }
  return keys;
}

bool ResizeController::HeldByPods(const std::string& key, const Claim& claim) {
  if (!pods_) return false;
  {
    std::lock_guard lock(mu_);
    if (!in_use_errors_.contains(key)) return false;
  }
  for (const auto& pod : pods_->List()) {
    if (pod->metadata.namespace_ == claim.metadata.namespace_ && !pod->Ended() &&
        pod->UsesClaim(claim.metadata.name)) {
      return true;
    }
  }
  return false;
}

kube::ReconcileResult ResizeController::Sync(const std::string& key,
                                             const std::shared_ptr<const Claim>& queued) {
  if (!queued) {
    Forget(key);
    std::lock_guard lock(mu_);
    in_use_errors_.erase(key);
    return kube::Action::Done();
  }
  std::optional<ClaimInTurn> in_turn = TakeTurn(turns_, controller_, key);
  if (!in_turn) return kube::Action::Done();  // queued again when the modify sync ends
  const std::shared_ptr<const Claim>& claim = in_turn->claim;
  if (!claim) return kube::Action::Done();  // its deletion queues it
  if (claim->spec.volume_name.empty()) return kube::Action::Done();
  std::shared_ptr<const kube::PersistentVolume> volume =
      volumes_->GetByKey(claim->spec.volume_name);
  if (!volume) {
    return base::Error("PV " + base::GoQuote(claim->spec.volume_name) + " bound to pvc " +
                       base::GoQuote(ClaimName(*claim)) + " not found");
  }
  if (base::Status s = DropPreResizeCapacity(*claim, *volume); !s.ok()) return s.error();
  if (!NeedsResize(*claim)) return kube::Action::Done();
  return ExpandAndRecover(key, *claim, *volume);
}

// §4.2 step 2: the node finished (the claim's capacity reached the PV's), so
// the KCM binder no longer needs the old size.
base::Status ResizeController::DropPreResizeCapacity(const Claim& claim,
                                                     const kube::PersistentVolume& volume) {
  if (!annotate_fs_resize_ || !volume.metadata.annotations.contains(kPreResizeCapacityAnnotation)) {
    return base::Status::Ok();
  }
  if (BytesOr0(claim.status.capacity_storage) < BytesOr0(volume.spec.capacity_storage.str())) {
    return base::Status::Ok();
  }
  base::Result<kube::PersistentVolume> written =
      api_.PatchVolume(volume.metadata.name, DropPreResizeCapacityPatch());
  if (!written.ok()) {
    return base::Error("failed removing annotation " + std::string(kPreResizeCapacityAnnotation) +
                       " from pv " + base::GoQuote(volume.metadata.name) + ": " +
                       written.error().message);
  }
  return base::Status::Ok();
}

bool ResizeController::CanExpand(const Claim& claim, const kube::PersistentVolume& volume) const {
  const auto& ref = volume.spec.claim_ref;
  if (!ref || ref->namespace_ != claim.metadata.namespace_ || ref->uid != claim.metadata.uid) {
    return false;
  }
  // An in-tree volume migrated to this driver: KCM names the driver in the
  // claim's storage-resizer annotation (docs/resizer.md §9).
  if (migration_target_ && ResizerOf(claim) == driver_name_) return true;
  const auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&volume.spec.source);
  return csi && csi->driver.str() == driver_name_;
}

SizeInputs ResizeController::InputsFor(const std::string& key, const Claim& claim,
                                       const kube::PersistentVolume& volume) {
  SizeInputs in{
      .pv_bytes = BytesOr0(volume.spec.capacity_storage.str()),
      .requested = {claim.spec.requests_storage, BytesOr0(claim.spec.requests_storage)},
      .allocated_status = claim.status.allocated_storage_status,
      .controller_expands = expander_.ExpandsInController(),
      .file_system_resize_pending = claim.HasTrueCondition(kFileSystemResizePendingCondition)};
  if (!claim.status.allocated_storage.empty()) {
    in.allocated = Size{claim.status.allocated_storage, BytesOr0(claim.status.allocated_storage)};
  }
  std::lock_guard lock(mu_);
  in.saw_final_error = final_errors_.contains(key);
  return in;
}

kube::ReconcileResult ResizeController::ExpandAndRecover(const std::string& key, const Claim& claim,
                                                         const kube::PersistentVolume& volume) {
  if (!CanExpand(claim, volume)) return kube::Action::Done();
  const base::Clock::Duration slow_left = slow_.TimeLeft(key);  // before this sync marks it
  if (claim.status.allocated_storage_status == kControllerResizeInfeasible) slow_.Mark(key);

  const SizeInputs in = InputsFor(key, claim, volume);
  std::optional<Size> size = ChooseSize(in);
  if (!size) return kube::Action::Done();

  bool new_state = true;
  if (in.allocated && in.allocated->bytes == size->bytes) {
    if (slow_left > base::Clock::Duration::zero()) {
      LOG_V(4, "skipping volume expansion for pvc " + key +
                   ", because expansion previously failed with infeasible error");
      return kube::Action::RequeueAfter(slow_left);
    }
    new_state = false;  // "skipping updating status"
  }
  base::Result<Claim> marked = WriteClaimStatus(api_, controller_.store(), claim,
                                                MarkResizingPatch(claim, *size, new_state, Now()));
  if (!marked.ok()) {
    return base::Error("marking pvc " + base::GoQuote(key) +
                       " as resizing failed: " + marked.error().message);
  }
  if (HeldByPods(key, *marked)) {
    const std::string message = "Unable to expand " + key + " because CSI driver " + driver_name_ +
                                " only supports offline expansion and volume is currently in-use";
    events_.Warning(*marked, kResizeFailedReason, message);
    return base::Error(message);
  }
  {
    std::lock_guard lock(mu_);
    in_use_errors_.erase(key);
  }
  events_.Normal(*marked, kResizingReason,
                 "External resizer is resizing volume " + volume.metadata.name);
  return kube::DoneOr(CallDriver(key, *marked, volume, *size, claim.status.capacity_storage));
}

base::Status ResizeController::CallDriver(const std::string& key, const Claim& claim,
                                          const kube::PersistentVolume& volume, const Size& size,
                                          const std::string& old_capacity) {
  base::Result<Expansion> expansion = [&]() -> base::Result<Expansion> {
    base::Result<kube::StringMap> secrets = SecretsFor(volume);
    if (!secrets.ok()) return secrets.error();
    base::Result<Expansion> answer = expander_.Expand(volume, size.bytes, *secrets);
    if (answer.ok() && answer->capacity_bytes <= 0) {
      return base::Error("driver answered ControllerExpandVolume with capacity_bytes " +
                         std::to_string(answer->capacity_bytes));
    }
    return answer;
  }();
  base::Status outcome = expansion.ok()
                             ? RecordSuccess(key, claim, volume, *expansion, old_capacity)
                             : RecordFailure(key, claim, expansion.error());
  if (!outcome.ok()) events_.Warning(claim, kResizeFailedReason, outcome.error().message);
  return outcome;
}

base::Result<kube::StringMap> ResizeController::SecretsFor(const kube::PersistentVolume& volume) {
  const auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&volume.spec.source);
  if (!csi || !csi->controller_expand_secret_ref) return kube::StringMap();
  const kube::SecretReference& ref = *csi->controller_expand_secret_ref;
  return SecretData(api_, ref.namespace_, ref.name);
}

base::Status ResizeController::RecordFailure(const std::string& key, const Claim& claim,
                                             const base::Error& error) {
  if (pods_ && error.IsGrpc() && error.code == grpc::StatusCode::FAILED_PRECONDITION) {
    std::lock_guard lock(mu_);
    in_use_errors_.insert(key);
  }
  const GrpcErrorKind kind = KindOf(error);
  if (kind == GrpcErrorKind::kInProgress) {
    Forget(key);
  } else {
    {
      std::lock_guard lock(mu_);
      final_errors_.insert(key);
    }
    if (kind != GrpcErrorKind::kInfeasible) slow_.Remove(key);
    base::Result<Claim> marked = WriteClaimStatus(
        api_, controller_.store(), claim,
        MarkControllerErrorPatch(claim, error.message, kind == GrpcErrorKind::kInfeasible, Now()));
    if (!marked.ok()) {
      return base::Error("resizing failed in controller with " + error.message +
                         " but failed to update PVC " + ClaimName(claim) +
                         " with: " + marked.error().message);
    }
  }
  return base::Error("resize volume " + base::GoQuote(claim.spec.volume_name) + " by resizer " +
                     base::GoQuote(driver_name_) + " failed: " + error.message);
}

base::Status ResizeController::RecordSuccess(const std::string& key, const Claim& claim,
                                             const kube::PersistentVolume& volume,
                                             const Expansion& expansion,
                                             const std::string& old_capacity) {
  Forget(key);
  const std::string capacity = base::FormatBinarySIQuantity(expansion.capacity_bytes);
  const bool record_old = annotate_fs_resize_ && expansion.node_expansion_required &&
                          !volume.metadata.annotations.contains(kPreResizeCapacityAnnotation);
  base::Result<kube::PersistentVolume> written = api_.PatchVolume(
      volume.metadata.name, VolumeCapacityPatch(capacity, record_old ? &old_capacity : nullptr));
  if (!written.ok()) {
    return base::Error("error updating pv " + base::GoQuote(volume.metadata.name) +
                       " by resizer: updating capacity of PV " +
                       base::GoQuote(volume.metadata.name) + " to " + capacity +
                       " failed: " + written.error().message);
  }
  const std::string patch = expansion.node_expansion_required
                                ? MarkNodeExpansionPendingPatch(claim, Now())
                                : MarkExpansionFinishedPatch(claim, capacity);
  base::Result<Claim> marked = WriteClaimStatus(api_, controller_.store(), claim, patch);
  if (!marked.ok()) {
    return base::Error(
        (expansion.node_expansion_required
             ? "mark PVC " + base::GoQuote(ClaimName(claim)) +
                   " as node expansion required failed: "
             : "mark PVC " + base::GoQuote(ClaimName(claim)) + " as resize finished failed: ") +
        marked.error().message);
  }
  if (expansion.node_expansion_required) {
    events_.Normal(claim, kFileSystemResizeRequiredReason,
                   "Require file system resize of volume on node");
  } else {
    events_.Normal(claim, kResizeSucceededReason, "Resize volume succeeded");
  }
  return base::Status::Ok();
}

TimePoint ResizeController::Now() const { return clock_.WallNow(); }

void ResizeController::Forget(const std::string& key) {
  slow_.Remove(key);
  std::lock_guard lock(mu_);
  final_errors_.erase(key);
}

}  // namespace resizer
