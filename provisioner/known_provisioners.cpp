#include "provisioner/known_provisioners.h"

#include <utility>

#include "migration/drivers.h"
#include "migration/storage_class.h"

namespace provisioner {

KnownProvisioners::KnownProvisioners(std::string driver_name) : driver_(std::move(driver_name)) {
  if (auto plugin = migration::InTreePluginOf(driver_)) in_tree_ = std::string(*plugin);
}

bool KnownProvisioners::Knows(std::string_view name) const {
  return name == driver_ || IsInTree(name);
}

bool KnownProvisioners::IsInTree(std::string_view provisioner) const {
  return in_tree_ && provisioner == *in_tree_;
}

base::Result<kube::StorageClass> KnownProvisioners::ForDriver(
    const kube::StorageClass& storage_class) const {
  if (!IsInTree(storage_class.provisioner)) return storage_class;
  auto translated = migration::TranslateInTreeStorageClassToCsi(*in_tree_, storage_class);
  if (!translated.ok()) return translated.error().Wrap("failed to translate storage class");
  return translated;
}

}  // namespace provisioner
