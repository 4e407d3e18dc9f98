// ClaimController's part in node deployment (docs/provisioner.md §3.12):
// whether this node takes a claim no node has been selected for.
#include "base/log.h"
#include "provisioner/claim_controller.h"
#include "provisioner/node_room.h"

namespace provisioner {

kube::ReconcileResult ClaimController::TakeIfFits(const std::string& key, const Claim& claim,
                                                  const kube::StorageClass& storage_class) {
  // A waiting class's claim gets its node from the scheduler.
  if (storage_class.WaitsForFirstConsumer() || !options_.node->immediate_binding) {
    return kube::Action::Done();
  }
  if (!AdmitsThisNode(claim, storage_class)) return kube::Action::Done();
  return taker_->Try(key, claim, [&] {
    ProvisioningContext context = ContextFor(key);
    // Not an attempt: a finalizer the check put on a snapshot is not this
    // process's to release, since another node's attempt may need it.
    context.on_protected = {};
    return HasRoomOnNode(context, claim, storage_class, options_.node->node_name);
  });
}

bool ClaimController::AdmitsThisNode(const Claim& claim,
                                     const kube::StorageClass& storage_class) const {
  if (storage_class.allowed_topologies.empty() || !topology_) return true;
  // Asked as for a claim placed here; the answer is not kept for it.
  TopologyMemo scratch;
  const TopologyView here{.driver_name = topology_->driver_name,
                          .csi_nodes = topology_->csi_nodes,
                          .nodes = topology_->nodes,
                          .options = topology_->options,
                          .memo = scratch};
  AccessibilityResult fits =
      AccessibilityRequirements(here, claim, storage_class, options_.node->node_name);
  if (auto* failure = std::get_if<ProvisionFailure>(&fits)) {
    LOG_V(5, "ignoring PVC, allowed topologies is not compatible")
        .With("PVC", claim.metadata.namespace_ + "/" + claim.metadata.name)
        .With("err", failure->error.message);
    return false;
  }
  return true;
}

}  // namespace provisioner
