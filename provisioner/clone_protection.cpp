#include "provisioner/clone_protection.h"

#include <utility>

#include "base/log.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"
#include "provisioner/names.h"

namespace provisioner {
namespace {

constexpr std::string_view kQueueName = "cloning-protection";

// The claim `claim` clones ("<namespace>/<name>"), if it clones one: upstream
// looks at spec.dataSource's kind only.
std::optional<std::string> SourceOf(const kube::PersistentVolumeClaim& claim) {
  const auto& source = claim.spec.data_source;
  if (!source || source->kind != "PersistentVolumeClaim") return std::nullopt;
  return claim.metadata.namespace_ + "/" + source->name;
}

bool Deleting(const kube::PersistentVolumeClaim& claim) {
  return !claim.metadata.deletion_timestamp.empty();
}

}  // namespace

CloneProtectionController::CloneProtectionController(const component::LoopOptions& loop,
                                                     kube::InformerSet& informers,
                                                     ProvisionerApi& api, base::Clock& clock)
    : api_(api),
      controller_(
          informers,
          {.name = std::string(kQueueName),
           .workers = loop.worker_threads,
           .retry_start = loop.retry_interval_start,
           .retry_max = loop.retry_interval_max},
          // Only claims being deleted are synced (upstream's enqueueClaimUpdate).
          {.admits = [](const Claim& claim) { return Deleting(claim); },
           .on_delete = [](const std::shared_ptr<const Claim>&)
               -> std::optional<kube::WorkQueue::Lane> { return std::nullopt; }},
          [this](const std::string& key, const std::shared_ptr<const Claim>& claim) {
            return Sync(key, claim);
          },
          clock) {
  controller_.Watches<Claim>([this](const kube::Change<Claim>& change) { return Index(change); });
}

std::vector<std::string> CloneProtectionController::Index(const kube::Change<Claim>& change) {
  const Claim& claim = change.object;
  std::vector<std::string> sources;
  if (change.old_object) {
    if (auto old_source = SourceOf(*change.old_object)) sources.push_back(*old_source);
  }
  std::optional<std::string> source = SourceOf(claim);
  if (source && (sources.empty() || sources.front() != *source)) sources.push_back(*source);
  const bool pending = change.type != kube::Change<Claim>::Type::kDeleted &&
                       claim.status.phase == "Pending" && source.has_value();
  std::lock_guard lock(mu_);
  for (const std::string& key : sources) {
    auto it = pending_clones_.find(key);
    if (it == pending_clones_.end()) continue;
    it->second.erase(claim.metadata.name);
    if (it->second.empty()) pending_clones_.erase(it);
  }
  if (pending) pending_clones_[*source].insert(claim.metadata.name);
  return sources;
}

std::optional<std::string> CloneProtectionController::PendingCloneOf(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = pending_clones_.find(key);
  if (it == pending_clones_.end()) return std::nullopt;
  return *it->second.begin();
}

kube::ReconcileResult CloneProtectionController::Sync(const std::string& key,
                                                      const std::shared_ptr<const Claim>& claim) {
  if (!claim || !Deleting(*claim) || !kube::HasFinalizer(claim->metadata, kCloneSourceFinalizer)) {
    return kube::Action::Done();
  }
  if (std::optional<std::string> clone = PendingCloneOf(key)) {
    return base::Error("PVC '" + *clone + "' is in 'Pending' state, cloning in progress");
  }
  base::Status s = api_.SetClaimFinalizer(claim->metadata.namespace_, claim->metadata.name,
                                          kCloneSourceFinalizer, /*add=*/false);
  if (!s.ok() && !kube::IsNotFound(s.error())) {
    LOG_INFO("failed to remove clone finalizer from PVC").With("PVC", key);
    return s.error();
  }
  return kube::Action::Done();
}

}  // namespace provisioner
