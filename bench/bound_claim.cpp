#include "bench/bound_claim.h"

#include <nlohmann/json.hpp>

#include "bench/objects.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "tests/support/test_objects.h"

namespace bench {
namespace {

// The PV binder's (k8s.io/kubernetes pkg/controller/volume/persistentvolume).
constexpr char kBindCompleted[] = "pv.kubernetes.io/bind-completed";
constexpr char kBoundByController[] = "pv.kubernetes.io/bound-by-controller";

}  // namespace

kube::PersistentVolume BoundVolume(const BoundClaimSpec& spec, const std::string& claim_uid) {
  kube::PersistentVolume volume = kube::testobjects::CsiPv(spec.name, kDriverName, spec.handle);
  volume.spec.capacity_storage = spec.size;
  volume.spec.storage_class_name = spec.storage_class;
  volume.spec.claim_ref =
      kube::ClaimReference{.namespace_ = spec.ns, .name = spec.name, .uid = claim_uid};
  return volume;
}

base::Status CreateBoundClaim(kube::Client& admin, const BoundClaimSpec& spec) {
  kube::PersistentVolumeClaim claim;
  claim.metadata.namespace_ = spec.ns;
  claim.metadata.name = spec.name;
  claim.spec.access_modes = {"ReadWriteOnce"};
  claim.spec.requests_storage = spec.size;
  claim.spec.storage_class_name = spec.storage_class;
  claim.spec.volume_name = spec.name;
  if (spec.binder_annotations) {
    claim.metadata.annotations[kBindCompleted] = "yes";
    claim.metadata.annotations[kBoundByController] = "yes";
  }
  auto pvc = admin.Create(claim);
  if (!pvc.ok()) return pvc.error().Wrap("creating PVC " + spec.name);
  kube::PersistentVolume volume = BoundVolume(spec, pvc->metadata.uid.str());
  if (spec.binder_annotations) volume.metadata.annotations[kBoundByController] = "yes";
  auto pv = admin.Create(volume);
  if (!pv.ok()) return pv.error().Wrap("creating PV " + spec.name);
  // The binder's status writes.
  nlohmann::json claim_status = {{"phase", "Bound"}};
  if (spec.capacity_in_status) claim_status["capacity"] = {{"storage", spec.size}};
  // The binder also copies the access modes; a bound claim without them it
  // writes again.
  if (spec.binder_annotations) claim_status["accessModes"] = {"ReadWriteOnce"};
  auto bound = admin.PatchStatus<kube::PersistentVolumeClaim>(
      spec.ns, spec.name, kube::PatchType::kMerge, nlohmann::json{{"status", claim_status}}.dump());
  if (!bound.ok()) return bound.error().Wrap("marking PVC " + spec.name + " Bound");
  auto volume_bound = admin.PatchStatus<kube::PersistentVolume>(
      "", spec.name, kube::PatchType::kMerge, R"({"status":{"phase":"Bound"}})");
  if (!volume_bound.ok()) return volume_bound.error().Wrap("marking PV " + spec.name + " Bound");
  return {};
}

}  // namespace bench
