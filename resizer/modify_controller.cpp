#include "resizer/modify_controller.h"

#include <grpcpp/support/status.h>

#include <utility>

#include "base/log.h"
#include "base/strconv.h"
#include "csi/errors.h"
#include "csi/final_error.h"
#include "resizer/claim_queue.h"
#include "resizer/claim_turns.h"
#include "resizer/modify_patches.h"
#include "resizer/names.h"

namespace resizer {
namespace {

std::string ClaimKey(const kube::PersistentVolumeClaim& claim) {
  return claim.metadata.namespace_ + "/" + claim.metadata.name;
}

bool IsPendingFor(const kube::PersistentVolumeClaim& claim, const std::string& class_name) {
  const auto& status = claim.status.modify_volume_status;
  return status && status->status == kModifyPending &&
         claim.spec.volume_attributes_class_name.value_or("") == class_name;
}

}  // namespace

bool ModifyUpdateNeedsSync(const kube::PersistentVolumeClaim& old_claim,
                           const kube::PersistentVolumeClaim& new_claim) {
  return (old_claim.spec.volume_attributes_class_name !=
              new_claim.spec.volume_attributes_class_name ||
          !new_claim.status.modify_volume_status) &&
         new_claim.status.phase == "Bound";
}

ModifyController::ModifyController(const std::string& driver_name,
                                   const ModifyControllerOptions& options,
                                   kube::InformerSet& informers, ClaimTurns& turns, ResizerApi& api,
                                   VolumeModifier& modifier, ResizeEvents& events,
                                   kube::WorkQueueMetrics* queue_metrics, base::Clock& clock)
    : driver_name_(driver_name),
      extra_modify_metadata_(options.extra_modify_metadata),
      turns_(turns),
      api_(api),
      modifier_(modifier),
      events_(events),
      clock_(clock),
      slow_(clock, options.loop.retry_interval_max),
      controller_(
          informers, ClaimQueueOptions(driver_name, options.loop, queue_metrics),
          {.update_needs_sync = ModifyUpdateNeedsSync},
          [this](const std::string& key, const std::shared_ptr<const Claim>& claim) {
            return Sync(key, claim);
          },
          clock) {
  volumes_ = &controller_.Reads<kube::PersistentVolume>();
  controller_.Watches<kube::VolumeAttributesClass>(
      [this](const kube::Change<kube::VolumeAttributesClass>& change) {
        return ClaimsWaitingFor(change);
      });
  classes_ = &controller_.Reads<kube::VolumeAttributesClass>();
}

std::vector<std::string> ModifyController::ClaimsWaitingFor(
    const kube::Change<kube::VolumeAttributesClass>& change) {
  if (change.type != kube::Change<kube::VolumeAttributesClass>::Type::kAdded) return {};
  std::vector<std::string> keys;
  for (const auto& claim : controller_.store().List()) {
    if (IsPendingFor(*claim, change.object.metadata.name)) keys.push_back(ClaimKey(*claim));
  }
  return keys;
}

bool ModifyController::Uncertain(const std::string& key) {
  // §5.2: every claim InProgress when the process starts continues to its
  // target. The workers start once the caches are complete, so the first
  // sync sees every claim.
  std::call_once(uncertain_loaded_, [this] {
    std::lock_guard lock(mu_);
    for (const auto& claim : controller_.store().List()) {
      const auto& status = claim->status.modify_volume_status;
      if (status && status->status == kModifyInProgress) uncertain_.insert(ClaimKey(*claim));
    }
  });
  std::lock_guard lock(mu_);
  return uncertain_.contains(key);
}

void ModifyController::SetUncertain(const std::string& key, bool uncertain) {
  std::lock_guard lock(mu_);
  if (uncertain) {
    uncertain_.insert(key);
  } else {
    uncertain_.erase(key);
  }
}

kube::ReconcileResult ModifyController::Sync(const std::string& key,
                                             const std::shared_ptr<const Claim>& queued) {
  if (!queued) {
    slow_.Remove(key);
    SetUncertain(key, false);
    return kube::Action::Done();
  }
  std::optional<ClaimInTurn> in_turn = TakeTurn(turns_, controller_, key);
  if (!in_turn) return kube::Action::Done();  // queued again when the resize sync ends
  const std::shared_ptr<const Claim>& claim = in_turn->claim;
  if (!claim) return kube::Action::Done();  // its deletion queues it
  if (claim->spec.volume_name.empty()) return kube::Action::Done();
  std::shared_ptr<const kube::PersistentVolume> volume =
      volumes_->GetByKey(claim->spec.volume_name);
  if (!volume) {
    return base::Error("Get PV " + base::GoQuote(claim->spec.volume_name) + " of pvc " +
                       base::GoQuote(key) + " in PVInformer cache failed: persistentvolume " +
                       base::GoQuote(claim->spec.volume_name) + " not found");
  }
  const auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&volume->spec.source);
  if (!csi || csi->driver.str() != driver_name_) return kube::Action::Done();
  if (claim->status.phase != "Bound") return kube::Action::Done();
  return Modify(key, *claim, *volume);
}

kube::ReconcileResult ModifyController::Modify(const std::string& key, const Claim& claim,
                                               const kube::PersistentVolume& volume) {
  const kube::HeapOptional<kube::ModifyVolumeStatus>& status = claim.status.modify_volume_status;
  const std::string wanted = claim.spec.volume_attributes_class_name.value_or("");
  if (!status || wanted.empty() || status->target_volume_attributes_class_name != wanted) {
    slow_.Remove(key);  // a new class may be feasible
  } else {
    const base::Clock::Duration slow_left = slow_.TimeLeft(key);  // before this sync marks it
    if (status->status == kModifyInfeasible) slow_.Mark(key);
    if (slow_left > base::Clock::Duration::zero()) {
      LOG_V(4, "skipping volume modification for pvc " + key +
                   ", because modification previously failed with infeasible error");
      return kube::Action::RequeueAfter(slow_left);
    }
  }
  if (!status && wanted == claim.status.current_volume_attributes_class_name) {
    return kube::Action::Done();
  }
  const bool in_progress = status && status->status == kModifyInProgress;
  if (wanted.empty() && !in_progress) return RollBack(claim);

  if (wanted.empty() || (in_progress && Uncertain(key))) {
    auto klass = ClassNamed(claim, status->target_volume_attributes_class_name);
    if (!klass.ok()) return klass.error();
    return kube::DoneOr(CallDriver(key, claim, volume, **klass));
  }
  auto klass = ClassNamed(claim, wanted);
  if (!klass.ok()) {
    base::Result<Claim> pending =
        WriteClaimStatus(api_, controller_.store(), claim,
                         MarkModifyStatusPatch(claim, kModifyPending, nullptr, clock_.WallNow()));
    if (!pending.ok()) {
      return base::Error("mark PVC " + base::GoQuote(claim.metadata.name) +
                         " as modify volume failed, errored with: " + pending.error().message);
    }
    return kube::Action::Done();  // queued again when the class appears
  }
  base::Result<Claim> marked =
      WriteClaimStatus(api_, controller_.store(), claim,
                       MarkModifyStatusPatch(claim, kModifyInProgress, nullptr, clock_.WallNow()));
  if (!marked.ok()) {
    return base::Error("mark PVC " + base::GoQuote(claim.metadata.name) +
                       " as modify volume failed, errored with: " + marked.error().message);
  }
  events_.Normal(*marked, kModifyingReason,
                 "external resizer is modifying volume " + claim.metadata.name + " with vac " +
                     (*klass)->metadata.name);
  return kube::DoneOr(CallDriver(key, *marked, volume, **klass));
}

kube::ReconcileResult ModifyController::RollBack(const Claim& claim) {
  if (!claim.FindCondition(kModifyingVolumeCondition)) return kube::Action::Done();
  events_.Normal(claim, kModifyCanceledReason, "Cancelled modify.");
  base::Result<Claim> written =
      WriteClaimStatus(api_, controller_.store(), claim, DropModifyingConditionPatch());
  if (!written.ok()) {
    return base::Error("mark PVC " + base::GoQuote(claim.metadata.name) +
                       " as rolled back failed: " + written.error().message);
  }
  return kube::Action::Done();
}

base::Result<std::shared_ptr<const kube::VolumeAttributesClass>> ModifyController::ClassNamed(
    const Claim& claim, const std::string& name) {
  std::shared_ptr<const kube::VolumeAttributesClass> klass = classes_->GetByKey(name);
  if (klass) return klass;
  events_.Warning(claim, kModifyFailedReason, "VAC " + base::GoQuote(name) + " does not exist.");
  return base::Error("get VAC with vac name " + name +
                     " in VACInformer cache failed: volumeattributesclass.storage.k8s.io " +
                     base::GoQuote(name) + " not found");
}

base::Status ModifyController::CallDriver(const std::string& key, const Claim& claim,
                                          const kube::PersistentVolume& volume,
                                          const kube::VolumeAttributesClass& klass) {
  base::Result<kube::StringMap> secrets = SecretsFor(volume);
  base::Status modified =
      secrets.ok() ? modifier_.Modify(volume, ParametersFor(claim, volume, klass), *secrets)
                   : base::Status(secrets.error());
  if (modified.ok()) return RecordSuccess(key, claim, volume, klass);
  return RecordFailure(key, claim, klass, modified.error());
}

kube::StringMap ModifyController::ParametersFor(const Claim& claim,
                                                const kube::PersistentVolume& volume,
                                                const kube::VolumeAttributesClass& klass) const {
  kube::StringMap parameters = klass.parameters;
  if (extra_modify_metadata_) {
    parameters[std::string(kPvcNameParameter)] = claim.metadata.name;
    parameters[std::string(kPvcNamespaceParameter)] = claim.metadata.namespace_;
    parameters[std::string(kPvNameParameter)] = volume.metadata.name;
  }
  return parameters;
}

// §5.4: the Secret the provisioner named in the PV's annotations, else the
// PV's controllerExpandSecretRef, else none.
base::Result<kube::StringMap> ModifyController::SecretsFor(const kube::PersistentVolume& volume) {
  const auto& annotations = volume.metadata.annotations;
  auto name_it = annotations.find(kModifySecretNameAnnotation);
  auto namespace_it = annotations.find(kModifySecretNamespaceAnnotation);
  std::string name, ns;
  if (name_it != annotations.end() && namespace_it != annotations.end() &&
      !name_it->second.empty() && !namespace_it->second.empty()) {
    name = name_it->second;
    ns = namespace_it->second;
  } else {
    const auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&volume.spec.source);
    if (!csi || !csi->controller_expand_secret_ref) return kube::StringMap();
    name = csi->controller_expand_secret_ref->name;
    ns = csi->controller_expand_secret_ref->namespace_;
  }
  return SecretData(api_, ns, name);
}

base::Status ModifyController::RecordSuccess(const std::string& key, const Claim& claim,
                                             const kube::PersistentVolume& volume,
                                             const kube::VolumeAttributesClass& klass) {
  const std::string target =
      claim.status.modify_volume_status
          ? claim.status.modify_volume_status->target_volume_attributes_class_name
          : klass.metadata.name;
  // The PV first: a claim marked finished with its PV not is what upstream
  // avoids by this order.
  base::Result<kube::PersistentVolume> written =
      api_.PatchVolume(volume.metadata.name, VolumeClassPatch(target));
  if (!written.ok()) {
    return base::Error("modify volume failed to mark pvc " + claim.metadata.name +
                       " modify volume completed: update pv.Spec.VolumeAttributesClassName for "
                       "PVC " +
                       base::GoQuote(claim.metadata.name) +
                       " failed, errored with: " + written.error().message);
  }
  base::Result<Claim> finished =
      WriteClaimStatus(api_, controller_.store(), claim, MarkModifyFinishedPatch(claim, target));
  if (!finished.ok()) {
    return base::Error(
        "modify volume failed to mark pvc " + claim.metadata.name +
        " modify volume completed: mark PVC " + base::GoQuote(claim.metadata.name) +
        " as ModifyVolumeCompleted failed, errored with: " + finished.error().message);
  }
  SetUncertain(key, false);
  slow_.Remove(key);
  events_.Normal(claim, kModifySucceededReason,
                 "external resizer modified volume " + claim.metadata.name + " with vac " +
                     klass.metadata.name + " successfully");
  return base::Status::Ok();
}

base::Status ModifyController::RecordFailure(const std::string& key, const Claim& claim,
                                             const kube::VolumeAttributesClass& klass,
                                             const base::Error& error) {
  if (!error.IsGrpc()) {
    return base::Error("cannot get error status from modify volume err: " + error.message);
  }
  const ModifyFailure failure{.code_name = csi::CodeName(error.code),
                              .message = csi::GrpcMessage(error),
                              .final = csi::IsFinalError(error)};
  std::string_view status = kModifyInProgress;
  std::string message = error.message;
  if (!failure.final) {
    SetUncertain(key, true);
    message += ". Still modifying to VAC " + klass.metadata.name;
  } else {
    // Only InvalidArgument is infeasible; other final errors stay InProgress.
    if (error.code == grpc::StatusCode::INVALID_ARGUMENT) status = kModifyInfeasible;
    SetUncertain(key, false);
  }
  base::Result<Claim> marked =
      WriteClaimStatus(api_, controller_.store(), claim,
                       MarkModifyStatusPatch(claim, status, &failure, clock_.WallNow()));
  if (!marked.ok()) {
    return base::Error("mark PVC " + base::GoQuote(claim.metadata.name) +
                       " as modify volume failed, errored with: " + marked.error().message);
  }
  if (status == kModifyInfeasible) slow_.Mark(key);
  events_.Warning(*marked, kModifyFailedReason, message);
  return error;
}

}  // namespace resizer
