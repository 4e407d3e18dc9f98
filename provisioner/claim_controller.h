// ClaimController: the provisioner's controller of PersistentVolumeClaims
// (docs/provisioner.md §3.1, §3.2, §3.11), on the generic runtime
// (kube/runtime/controller.h), queue "claims", keyed <namespace>/<name>.
//
// A claim is this driver's when it has no volume yet, KCM's
// storage-provisioner annotation names the driver, and - for a
// WaitForFirstConsumer class - the scheduler picked a node; every other
// claim is left alone without a word. Its class must be in the cache (else
// an error and a retry, no Event). A claim whose PV already exists is done.
// Otherwise one attempt: Normal Provisioning, ProvisionVolume, then the PV is
// created and Normal ProvisioningSucceeded follows. AlreadyExists counts as
// created when the stored PV names the same volume; when it names another
// one, the volume just made could never get a PV, so it is deleted (retried
// on the claim's next syncs until DeleteVolume succeeds; §9.2, #1469). A failure records Warning
// ProvisioningFailed and is retried with the error backoff (--retry-interval-start doubling up to
// --retry-interval-max); an infeasible request (InvalidArgument) is not
// retried at all for five minutes unless the class changes. A claim
// that failed is not attempted again before its backoff ends, whatever
// brings it back meanwhile - a resync, an update of the claim - so
// --retry-interval-max holds (§9.4; upstream's resync re-drives it every 15
// minutes). A claim
// whose CreateVolume may still run on the driver (kInBackground) is kept in
// memory and retried even after it is deleted - once a live GET confirms
// that the claim is gone, not just missing from the cache (§9.2) - so the
// volume the driver makes is found again by its name. A PV the API server refused is kept too
// and created again on the next attempt, without a new CreateVolume.
// A claim restored from a VolumeSnapshot gives the snapshot's
// source-protection finalizer back once the claim's volume is made, and -
// unlike upstream, which keeps it until its sweeper runs (§9.7, #1507) -
// on every terminal path too: a final CreateVolume failure, the claim
// deleted (and no CreateVolume left running), bound, its PV found, or no
// longer this driver's. Only a finalizer an attempt of this process added
// is released (remembered in memory); an unknown outcome keeps it.
// A topology-aware driver is asked for the claim's place (§3.6); when it
// answers ResourceExhausted for the node the scheduler picked, or that
// node's CSINode is gone, the claim loses its selected-node annotation so
// the scheduler picks again, and is not retried before it does (§3.11).
// While a CreateVolume outcome is unknown, the claim keeps the requirements
// that call carried in an annotation beside the §9.1 finalizer, and every
// attempt - also of a restarted process - asks for that place again (§9.8,
// lib #152).
// In node deployment (§3.12) only claims whose selected node is this node
// are provisioned; another node's are left alone without a word, and one
// without a node is taken by this node (ClaimTaker) when its class binds
// Immediate, --node-deployment-immediate-binding is on, the class's
// allowedTopologies admit this node and the driver has room here; the
// Node and CSINode the topology is computed from are this node's fixed
// ones (FixedNodeTopology).
//
// Thread-safety: Run() once; the runtime never hands one key to two
// workers, and the maps below are guarded.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>

#include "base/clock.h"
#include "component/loop_options.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/storage/v1/storage_class.h"
#include "kube/runtime/controller.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/rate_limiter.h"
#include "provisioner/accessibility.h"
#include "provisioner/capacity_refresh.h"
#include "provisioner/claim_events.h"
#include "provisioner/claim_taker.h"
#include "provisioner/known_provisioners.h"
#include "provisioner/node_deployment.h"
#include "provisioner/provisioner_metrics.h"
#include "provisioner/volume_provisioning.h"

namespace provisioner {

struct ClaimControllerOptions {
  component::LoopOptions loop;
  VolumeRequestOptions request;
  bool controller_publish_readonly = false;
  // Set for a topology-aware driver (VOLUME_ACCESSIBILITY_CONSTRAINTS and
  // the Topology gate, §3.6): Nodes and CSINodes are cached too.
  std::optional<TopologyOptions> topology;
  // With capacity tracking (§5): told of every volume made and of every
  // failure that reached the driver. Outlives the controller.
  CapacityRefresh* capacity = nullptr;
  // --node-deployment (§3.12).
  std::optional<NodeDeploymentOptions> node;
  // The jitter of ClaimTaker's delays; empty: random (tests fix it).
  ClaimTaker::Jitter node_jitter;
};

class ClaimController {
 public:
  using Claim = kube::PersistentVolumeClaim;

  // Everything passed by reference must outlive the controller; `metrics`
  // may be null.
  ClaimController(const std::string& driver_name, const std::string& identity,
                  const csi::Capabilities& capabilities, ClaimControllerOptions options,
                  kube::InformerSet& informers, ProvisionerApi& api, VolumeDriver& driver,
                  ClaimEvents& events, ProvisionerMetrics* metrics, base::Clock& clock);

  void Run(std::stop_token stop) { controller_.Run(stop); }
  const kube::WorkQueue& queue() const { return controller_.queue(); }

 private:
  kube::ReconcileResult Sync(const std::string& key, std::shared_ptr<const Claim> claim);
  // §3.1: whether the claim is this driver's to provision now.
  bool ShouldProvision(const Claim& claim) const;
  kube::ReconcileResult Attempt(const std::string& key, const std::shared_ptr<const Claim>& claim,
                                const kube::StorageClass& storage_class);
  // What an attempt for `key` prepares and provisions with.
  ProvisioningContext ContextFor(const std::string& key);
  // §3.12: a claim no node has been selected for, in node deployment.
  kube::ReconcileResult TakeIfFits(const std::string& key, const Claim& claim,
                                   const kube::StorageClass& storage_class);
  // §3.12: whether the class's allowedTopologies admit this node.
  bool AdmitsThisNode(const Claim& claim, const kube::StorageClass& storage_class) const;
  kube::ReconcileResult CreatePv(const std::string& key, const std::shared_ptr<const Claim>& claim,
                                 const kube::PersistentVolume& volume,
                                 const kube::StorageClass& storage_class,
                                 base::Clock::TimePoint started);
  kube::ReconcileResult Failed(const std::string& key, const std::shared_ptr<const Claim>& claim,
                               const kube::StorageClass& storage_class, ProvisionFailure failure);
  // §3.11: the scheduler is asked to pick another node; false when the
  // annotation could not be removed (the claim is retried as after a final
  // error).
  bool Reschedule(const std::string& key, const std::shared_ptr<const Claim>& claim);
  // §3.11: the claim failed as infeasible within the last five minutes, with
  // the class it still has.
  bool RecentlyInfeasible(const std::string& key, const kube::StorageClass& storage_class);
  // Whether a CreateVolume of the claim may still make a volume (§3.8
  // kInBackground, or the §9.1 record on the claim).
  bool OutcomeUnknown(const std::string& key, const Claim& claim);
  // The claim's PV exists: what an unknown outcome kept is let go.
  kube::ReconcileResult PvExists(const std::string& key, const Claim& claim);
  // §9.2: the claim an attempt remembers, once the cache lost it: the stored
  // claim if it still exists under that UID, else the remembered one.
  base::Result<std::shared_ptr<const Claim>> ConfirmVanished(
      const std::shared_ptr<const Claim>& remembered);
  // §9.2: whether the stored PV of `volume`'s name names the same volume.
  base::Result<bool> StoredPvNamesVolume(const kube::PersistentVolume& volume);
  // §9.2: the volume just made can have no PV (its name is taken by one of
  // another volume), so it is deleted, now or on the claim's next syncs.
  kube::ReconcileResult DuplicateVolumeMade(const std::string& key, const Claim& claim,
                                            const kube::PersistentVolume& volume);
  // Whether a volume left for `key` was deleted now.
  base::Result<bool> DeleteDuplicateOf(const std::string& key);
  // How long the claim's backoff still runs (0: none).
  base::Clock::Duration BackoffLeft(const std::string& key);
  void Forget(const std::string& key);
  static std::string SourceKind(const Claim& claim);
  // §9.1: the durable record of a claim whose outcome is unknown - the
  // finalizer and (§9.8) the accessibility requirements CreateVolume carried.
  void RecordUnknownOutcome(const Claim& claim,
                            const std::optional<csi::v1::TopologyRequirement>& topology);
  void RecordTopology(const Claim& claim, const std::string& record);
  base::Status ForgetUnknownOutcome(const Claim& claim);
  // §3.7, §9.7: the VolumeSnapshot whose finalizer an attempt for `key`
  // added; ReleaseSnapshotOf takes it off again (a failure is only logged).
  void HoldSnapshot(const std::string& key, const DataSource& source);
  void ReleaseSnapshotOf(const std::string& key);

  struct Infeasible {
    std::string class_uid;
    base::Clock::TimePoint at;
  };

  const std::string driver_name_;
  const KnownProvisioners known_;  // §3.13
  const std::string identity_;
  const csi::Capabilities& capabilities_;
  const ClaimControllerOptions options_;
  ProvisionerApi& api_;
  VolumeDriver& driver_;
  ClaimEvents& events_;
  ProvisionerMetrics* const metrics_;
  base::Clock& clock_;
  kube::Store<kube::StorageClass>& classes_;
  kube::Store<kube::PersistentVolume>& volumes_;
  kube::Store<Claim>& claims_;
  TopologyMemo topology_memo_;
  std::optional<FixedNodeTopology>
      node_topology_;                     // node deployment's, for a topology-aware driver
  std::optional<TopologyView> topology_;  // a topology-aware driver's
  std::optional<ClaimTaker> taker_;       // node deployment's
  // With the CrossNamespaceVolumeDataSource gate; else null.
  const kube::Store<kube::ReferenceGrant>* reference_grants_ = nullptr;

  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Claim>> in_background_;  // guarded by mu_
  std::map<std::string, kube::PersistentVolume> unsaved_volumes_;      // guarded by mu_
  // Volumes made for a claim whose PV name names another volume, until
  // DeleteVolume of them succeeds; guarded by mu_.
  std::map<std::string, kube::PersistentVolume> duplicates_;
  std::map<std::string, Infeasible> infeasible_;  // guarded by mu_
  std::set<std::string> recorded_;                // keys given the §9.1 finalizer; guarded by mu_
  std::set<std::string> recorded_places_;         // keys given the §9.8 record; guarded by mu_
  // Claim key -> "<namespace>/<name>" of its snapshot source; guarded by mu_.
  std::map<std::string, std::pair<std::string, std::string>> held_snapshots_;
  kube::ItemExponentialRateLimiter backoff_;
  std::map<std::string, base::Clock::TimePoint> retry_not_before_;  // guarded by mu_

  kube::Controller<Claim> controller_;
};

}  // namespace provisioner
