#include "provisioner/claim_controller.h"

#include <algorithm>
#include <utility>

#include "base/log.h"
#include "base/strconv.h"
#include "kube/client/api_error.h"
#include "provisioner/annotations.h"
#include "provisioner/names.h"
#include "provisioner/provisioned_volume.h"

namespace provisioner {
namespace {

kube::ControllerOptions LoopOf(const ClaimControllerOptions& options, ProvisionerMetrics* metrics) {
  return {.name = std::string(kClaimQueueName),
          .workers = options.loop.worker_threads,
          .retry_start = options.loop.retry_interval_start,
          .retry_max = options.loop.retry_interval_max,
          .requeue_start = options.loop.retry_interval_start,
          .requeue_max = options.loop.retry_interval_max,
          .metrics = metrics ? &metrics->claim_queue() : nullptr};
}

// How long an infeasible claim is not retried (§3.11): the provisioning
// library's fixed window, whatever --retry-interval-max says.
constexpr std::chrono::minutes kInfeasibleDelay{5};

}  // namespace

ClaimController::ClaimController(const std::string& driver_name, const std::string& identity,
                                 const csi::Capabilities& capabilities,
                                 ClaimControllerOptions options, kube::InformerSet& informers,
                                 ProvisionerApi& api, VolumeDriver& driver, ClaimEvents& events,
                                 ProvisionerMetrics* metrics, base::Clock& clock)
    : driver_name_(driver_name),
      known_(driver_name),
      identity_(identity),
      capabilities_(capabilities),
      options_(std::move(options)),
      api_(api),
      driver_(driver),
      events_(events),
      metrics_(metrics),
      clock_(clock),
      classes_(informers.StoreOf<kube::StorageClass>()),
      volumes_(informers.StoreOf<kube::PersistentVolume>()),
      claims_(informers.StoreOf<Claim>()),
      backoff_(options_.loop.retry_interval_start, options_.loop.retry_interval_max),
      controller_(
          informers, LoopOf(options_, metrics), {},
          [this](const std::string& key, const std::shared_ptr<const Claim>& claim) {
            return Sync(key, claim);
          },
          clock) {
  controller_.Reads<kube::StorageClass>();
  controller_.Reads<kube::PersistentVolume>();
  if (options_.request.cross_namespace_data_sources) {
    reference_grants_ = &controller_.Reads<kube::ReferenceGrant>();
  }
  if (options_.topology && options_.node) {
    // §2.4 step 7: this node's fixed objects; no Node or CSINode is watched.
    node_topology_.emplace(driver_name_, *options_.node);
    topology_.emplace(TopologyView{.driver_name = driver_name_,
                                   .csi_nodes = node_topology_->csi_nodes,
                                   .nodes = node_topology_->nodes,
                                   .options = *options_.topology,
                                   .memo = topology_memo_});
  } else if (options_.topology) {
    topology_.emplace(TopologyView{.driver_name = driver_name_,
                                   .csi_nodes = controller_.Reads<kube::CSINode>(),
                                   .nodes = controller_.Reads<kube::Node>(),
                                   .options = *options_.topology,
                                   .memo = topology_memo_});
  }
  if (options_.node) taker_.emplace(*options_.node, api_, clock_, options_.node_jitter);
}

bool ClaimController::ShouldProvision(const Claim& claim) const {
  if (!claim.spec.volume_name.empty()) return false;
  // KCM's annotation must name the driver, or the in-tree plugin it replaces
  // beside pv.kubernetes.io/migrated-to naming the driver (§3.13).
  std::string_view asked = AnnotationValue(claim.metadata, kStorageProvisionerAnnotation);
  if (asked.empty()) asked = AnnotationValue(claim.metadata, kBetaStorageProvisionerAnnotation);
  if (asked == driver_name_) return true;
  return known_.IsInTree(asked) &&
         AnnotationValue(claim.metadata, kMigratedToAnnotation) == driver_name_;
}

kube::ReconcileResult ClaimController::Sync(const std::string& key,
                                            std::shared_ptr<const Claim> claim) {
  // §9.2: a volume left over by an earlier sync goes first; its claim's
  // volume name is taken, so there is nothing else to do.
  auto duplicate_deleted = DeleteDuplicateOf(key);
  if (!duplicate_deleted.ok()) return duplicate_deleted.error();
  if (*duplicate_deleted) return claim ? PvExists(key, *claim) : kube::Action::Done();
  if (!claim) {
    // A claim deleted while its CreateVolume may still run on the driver is
    // driven on with its last known version (§3.8 kInBackground).
    std::unique_lock lock(mu_);
    auto it = in_background_.find(key);
    if (it == in_background_.end()) {
      infeasible_.erase(key);
      retry_not_before_.erase(key);
      backoff_.Forget(key);
      lock.unlock();
      if (taker_) taker_->Forget(key);
      ReleaseSnapshotOf(key);  // §9.7: the claim is gone
      return kube::Action::Done();
    }
    std::shared_ptr<const Claim> remembered = it->second;
    lock.unlock();
    auto confirmed = ConfirmVanished(remembered);
    if (!confirmed.ok()) return confirmed.error();
    claim = *confirmed;
  }
  if (!claim->spec.volume_name.empty()) {
    // Bound: a volume-being-created record left by a sync that raced the
    // store goes now (§9.1), and a snapshot source is free again (§9.7).
    ReleaseSnapshotOf(key);
    {
      std::lock_guard lock(mu_);
      in_background_.erase(key);
    }
    return kube::DoneOr(ForgetUnknownOutcome(*claim));
  }
  if (!ShouldProvision(*claim)) {
    ReleaseSnapshotOf(key);  // §9.7: no longer to be provisioned here
    return kube::Action::Done();
  }
  const NodeAssignment assignment =
      options_.node ? AssignmentOf(*claim, options_.node->node_name) : NodeAssignment::kThisNode;
  if (assignment == NodeAssignment::kOtherNode) {
    // §3.12: that node's provisioner does it. (A snapshot finalizer stays:
    // the other node's attempt needs the same one.)
    taker_->Forget(key);
    return kube::Action::Done();
  }
  const std::string class_name = ClassOfClaim(*claim);
  std::shared_ptr<const kube::StorageClass> storage_class = classes_.GetByKey(class_name);
  if (!storage_class) {
    if (metrics_) metrics_->ProvisionFailed(class_name, SourceKind(*claim));
    return base::Error("storageClass " + base::GoQuote(class_name) + " not found");
  }
  if (assignment == NodeAssignment::kNone) return TakeIfFits(key, *claim, *storage_class);
  // WaitForFirstConsumer: only once the scheduler picked a node (§3.1 step 5).
  if (storage_class->WaitsForFirstConsumer() && SelectedNodeOf(*claim).empty()) {
    return kube::Action::Done();
  }
  if (RecentlyInfeasible(key, *storage_class)) {
    return base::Error("skipping volume provisioning for pvc " + claim->metadata.uid.str() +
                       ", because provisioning previously failed with infeasible error");
  }
  const std::string volume_name =
      VolumeName(options_.request.volume_name_prefix, claim->metadata.uid.str(),
                 options_.request.volume_name_uuid_length);
  const bool pv_exists = volumes_.GetByKey(volume_name) != nullptr;
  if (pv_exists && !OutcomeUnknown(key, *claim)) {
    LOG_V(4, "PersistentVolume already exists, skipping").With("PVC", key).With("PV", volume_name);
    return PvExists(key, *claim);
  }
  if (!known_.Knows(storage_class->provisioner)) return kube::Action::Done();
  if (base::Clock::Duration left = BackoffLeft(key); left > base::Clock::Duration::zero()) {
    LOG_V(4, "Claim still in backoff, no attempt before it ends").With("PVC", key);
    return kube::Action::RequeueAfter(left);
  }
  {
    std::unique_lock lock(mu_);
    if (auto it = unsaved_volumes_.find(key); it != unsaved_volumes_.end()) {
      kube::PersistentVolume volume = it->second;
      lock.unlock();
      return CreatePv(key, claim, volume, *storage_class, clock_.Now());
    }
  }
  if (pv_exists) {
    // §9.2: the PV may name another volume than the one the unknown outcome
    // may have made; asking again under the same name tells which.
    LOG_V(2, "PersistentVolume exists while a CreateVolume outcome is unknown, asking again")
        .With("PVC", key)
        .With("PV", volume_name);
  }
  return Attempt(key, claim, *storage_class);
}

kube::ReconcileResult ClaimController::Attempt(const std::string& key,
                                               const std::shared_ptr<const Claim>& claim,
                                               const kube::StorageClass& storage_class) {
  const base::Clock::TimePoint started = clock_.Now();
  events_.Provisioning(*claim);
  ProvisionResult result = ProvisionVolume(ContextFor(key), *claim, storage_class);
  if (std::holds_alternative<LeftToPopulator>(result)) {
    events_.LeftToPopulator(*claim);
    LOG_V(4, "Volume provision ignored: a populator fills the data source").With("PVC", key);
    return kube::Action::Done();
  }
  if (auto* failure = std::get_if<ProvisionFailure>(&result)) {
    return Failed(key, claim, storage_class, std::move(*failure));
  }
  const auto& volume = std::get<kube::PersistentVolume>(result);
  LOG_V(2, "Successfully created volume for PVC").With("PV", volume.metadata.name).With("PVC", key);
  // Upstream takes the finalizer off here, before the PV is saved.
  ReleaseSnapshotOf(key);
  if (options_.capacity) options_.capacity->VolumeCreated(volume, storage_class.metadata.name);
  return CreatePv(key, claim, volume, storage_class, started);
}

ProvisioningContext ClaimController::ContextFor(const std::string& key) {
  return {.known = known_,
          .identity = identity_,
          .capabilities = capabilities_,
          .request_options = options_.request,
          .controller_publish_readonly = options_.controller_publish_readonly,
          .api = api_,
          .driver = driver_,
          .claims = controller_.store(),
          .on_protected = [this, key](const DataSource& source) { HoldSnapshot(key, source); },
          .topology = topology_ ? &*topology_ : nullptr,
          .reference_grants = reference_grants_};
}

kube::ReconcileResult ClaimController::CreatePv(const std::string& key,
                                                const std::shared_ptr<const Claim>& claim,
                                                const kube::PersistentVolume& volume,
                                                const kube::StorageClass& storage_class,
                                                base::Clock::TimePoint started) {
  auto created = api_.CreateVolume(volume);
  base::Status saved = created.ok() ? base::Status::Ok() : base::Status(created.error());
  if (!saved.ok() && kube::IsConflict(saved.error())) {
    // AlreadyExists: the PV of this name may name another volume (§9.2).
    auto same = StoredPvNamesVolume(volume);
    if (!same.ok()) {
      saved = same.error();
    } else if (!*same) {
      return DuplicateVolumeMade(key, *claim, volume);
    } else {
      saved = base::Status::Ok();
    }
  }
  if (!saved.ok()) {
    // The volume exists on the driver: keep the PV and try again, without
    // another CreateVolume - even once the claim is gone, since a PV whose
    // claim is gone is released and deleted, and its volume with it.
    LOG_ERROR("Failed to save PersistentVolume, will retry")
        .With("PV", volume.metadata.name)
        .With("err", saved.error().message);
    std::lock_guard lock(mu_);
    unsaved_volumes_[key] = volume;
    in_background_[key] = claim;
    retry_not_before_[key] = clock_.Now() + backoff_.When(key);
    return saved.error().Wrap("failed to save PersistentVolume " + volume.metadata.name);
  }
  {
    std::lock_guard lock(mu_);
    unsaved_volumes_.erase(key);
    in_background_.erase(key);
  }
  Forget(key);
  if (base::Status s = ForgetUnknownOutcome(*claim); !s.ok()) {
    // The PV exists: the next sync takes the finalizer off.
    LOG_ERROR("Failed to remove the claim's volume-being-created finalizer")
        .With("PVC", key)
        .With("err", s.error().message);
  }
  LOG_INFO("Volume is provisioned").With("PVC", key).With("PV", volume.metadata.name);
  // Only about a claim that still exists: a deleted one kept in memory gets
  // no Event (§3.2 step 5).
  if (std::shared_ptr<const Claim> cached = controller_.store().GetByKey(key);
      cached && cached->metadata.uid == claim->metadata.uid) {
    events_.Succeeded(*claim, volume.metadata.name);
  }
  if (metrics_) {
    metrics_->ProvisionSucceeded(storage_class.metadata.name, SourceKind(*claim),
                                 clock_.Now() - started);
  }
  return kube::Action::Done();
}

kube::ReconcileResult ClaimController::Failed(const std::string& key,
                                              const std::shared_ptr<const Claim>& claim,
                                              const kube::StorageClass& storage_class,
                                              ProvisionFailure failure) {
  if (metrics_) metrics_->ProvisionFailed(storage_class.metadata.name, SourceKind(*claim));
  {
    std::lock_guard lock(mu_);
    switch (failure.state) {
      case ProvisioningState::kInBackground:
        in_background_[key] = claim;
        break;
      case ProvisioningState::kFinished:
      case ProvisioningState::kReschedule:
        in_background_.erase(key);
        break;
      case ProvisioningState::kNoChange:
        break;
    }
    if (failure.infeasible) {
      infeasible_[key] = {storage_class.metadata.uid.str(), clock_.Now()};
    }
    retry_not_before_[key] = clock_.Now() + backoff_.When(key);
  }
  if (failure.state == ProvisioningState::kInBackground) {
    RecordUnknownOutcome(*claim, failure.sent_topology);
  }
  if (failure.state != ProvisioningState::kNoChange && options_.capacity) {
    options_.capacity->ProvisionFailed(storage_class.metadata.name);
  }
  if (failure.state != ProvisioningState::kInBackground &&
      failure.state != ProvisioningState::kNoChange) {
    ReleaseSnapshotOf(key);  // §9.7: the driver's answer is final
    if (base::Status s = ForgetUnknownOutcome(*claim); !s.ok()) {
      LOG_ERROR("Failed to remove the claim's volume-being-created finalizer")
          .With("PVC", key)
          .With("err", s.error().message);
    }
  }
  if (failure.infeasible) {
    events_.Infeasible(*claim, failure.error.message);
  } else {
    events_.Failed(*claim, failure.error.message);
  }
  LOG_ERROR("Failed to provision volume").With("PVC", key).With("err", failure.error.message);
  if (failure.state == ProvisioningState::kReschedule && !SelectedNodeOf(*claim).empty() &&
      Reschedule(key, claim)) {
    LOG_V(2, "Volume rescheduled because").With("PVC", key).With("err", failure.error.message);
    return kube::Action::Done();
  }
  return failure.error;
}

bool ClaimController::Reschedule(const std::string& key,
                                 const std::shared_ptr<const Claim>& claim) {
  auto written = api_.RemoveSelectedNode(claim->metadata.namespace_, claim->metadata.name);
  if (!written.ok()) {
    LOG_INFO("Volume rescheduling failed")
        .With("PVC", key)
        .With("err", "delete annotation 'annSelectedNode' for PersistentVolumeClaim " +
                         base::GoQuote(key) + ": " + written.error().message);
    return false;
  }
  // The claim as written, so no sync acts on the old node before the watch
  // brings the update - unless the watch brought a newer one already.
  if (*written) {
    claims_.ReplaceIfCurrent(claim, std::make_shared<const Claim>(std::move(**written)));
  }
  Forget(key);
  return true;
}

bool ClaimController::RecentlyInfeasible(const std::string& key,
                                         const kube::StorageClass& storage_class) {
  std::lock_guard lock(mu_);
  auto it = infeasible_.find(key);
  if (it == infeasible_.end()) return false;
  if (it->second.class_uid != storage_class.metadata.uid.str() ||
      clock_.Now() - it->second.at >= kInfeasibleDelay) {
    infeasible_.erase(it);
    return false;
  }
  return true;
}

base::Clock::Duration ClaimController::BackoffLeft(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = retry_not_before_.find(key);
  if (it == retry_not_before_.end()) return base::Clock::Duration::zero();
  return std::max(base::Clock::Duration::zero(), it->second - clock_.Now());
}

void ClaimController::Forget(const std::string& key) {
  std::lock_guard lock(mu_);
  retry_not_before_.erase(key);
  backoff_.Forget(key);
}

std::string ClaimController::SourceKind(const Claim& claim) {
  return claim.spec.data_source ? claim.spec.data_source->kind : "";
}

}  // namespace provisioner
