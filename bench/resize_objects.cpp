#include "bench/resize_objects.h"

#include <nlohmann/json.hpp>

#include "bench/bound_claim.h"
#include "bench/objects.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/storage/v1/storage_class.h"

namespace bench {

base::Status CreateExpandableClass(kube::Client& admin) {
  kube::StorageClass storage_class;
  storage_class.metadata.name = kResizeClassName;
  storage_class.provisioner = kDriverName;
  storage_class.allow_volume_expansion = true;
  auto created = admin.Create(storage_class);
  if (!created.ok()) return created.error().Wrap("creating the StorageClass");
  return {};
}

base::Status CreateResizableClaim(kube::Client& admin, const std::string& name) {
  return CreateBoundClaim(admin, {.ns = kResizeNamespace,
                                  .name = name,
                                  .handle = name,
                                  .storage_class = kResizeClassName,
                                  .size = kResizeFrom,
                                  .capacity_in_status = true});
}

base::Status RequestStorage(kube::Client& admin, const std::string& name, const std::string& size) {
  const nlohmann::json patch = {{"spec", {{"resources", {{"requests", {{"storage", size}}}}}}}};
  auto raised = admin.Patch<kube::PersistentVolumeClaim>(kResizeNamespace, name,
                                                         kube::PatchType::kMerge, patch.dump());
  if (!raised.ok()) return raised.error().Wrap("raising the request of PVC " + name);
  return {};
}

}  // namespace bench
