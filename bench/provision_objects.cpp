#include "bench/provision_objects.h"

#include "bench/objects.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/storage/v1/storage_class.h"
#include "provisioner/names.h"
#include "tests/support/cluster_objects.h"

namespace bench {

base::Status CreateProvisionedClass(kube::Client& admin) {
  kube::StorageClass storage_class;
  storage_class.metadata.name = kProvisionClassName;
  storage_class.provisioner = kDriverName;
  storage_class.reclaim_policy = "Delete";
  storage_class.volume_binding_mode = std::string(kube::kBindingImmediate);
  auto created = admin.Create(storage_class);
  if (!created.ok()) return created.error().Wrap("creating the StorageClass");
  return {};
}

base::Result<std::string> CreatePendingClaim(kube::Client& admin, const std::string& name,
                                             const std::string& storage_class) {
  kube::PersistentVolumeClaim claim;
  claim.metadata.namespace_ = kProvisionNamespace;
  claim.metadata.name = name;
  claim.metadata.annotations[std::string(provisioner::kStorageProvisionerAnnotation)] = kDriverName;
  claim.spec.access_modes = {"ReadWriteOnce"};
  claim.spec.requests_storage = "1Gi";
  claim.spec.storage_class_name = storage_class;
  auto created = admin.Create(claim);
  if (!created.ok()) return created.error().Wrap("creating PVC " + name);
  return "pvc-" + created->metadata.uid.str();
}

std::string ZoneOf(size_t index, size_t zones) { return "zone-" + std::to_string(index % zones); }

base::Status CreateZonedNode(kube::Client& admin, const std::string& name,
                             const std::string& zone) {
  auto node = testsupport::CreateNode(admin, {.name = name, .labels = {{kZoneKey, zone}}});
  if (!node.ok()) return node.error().Wrap("creating Node " + name);
  return testsupport::CreateCsiNode(admin, name, kDriverName, name + "-id", {kZoneKey});
}

base::Status CreateZonedClass(kube::Client& admin, const std::string& name,
                              const std::vector<std::string>& zones) {
  kube::StorageClass storage_class;
  storage_class.metadata.name = name;
  storage_class.provisioner = kDriverName;
  storage_class.reclaim_policy = "Delete";
  storage_class.volume_binding_mode = std::string(kube::kBindingWaitForFirstConsumer);
  if (!zones.empty()) {
    storage_class.allowed_topologies = {
        {.match_label_expressions = {{.key = kZoneKey, .values = zones}}}};
  }
  auto created = admin.Create(storage_class);
  if (!created.ok()) return created.error().Wrap("creating StorageClass " + name);
  return {};
}

}  // namespace bench
