#include "provisioner/deletion_secrets.h"

#include <optional>
#include <string>

#include "base/log.h"
#include "provisioner/annotations.h"
#include "provisioner/class_secrets.h"
#include "provisioner/names.h"

namespace provisioner {
namespace {

// The class's provisioner Secret for `volume`, resolved for its claim.
base::Result<std::optional<kube::SecretReference>> ClassSecretOf(
    const kube::PersistentVolume& volume, const kube::Store<kube::StorageClass>& classes,
    const KnownProvisioners* in_tree_class) {
  auto stored = classes.GetByKey(std::string(volume.spec.storage_class_name));
  if (!stored || !volume.spec.claim_ref) return std::optional<kube::SecretReference>();
  base::Result<kube::StorageClass> storage_class = *stored;
  if (in_tree_class) storage_class = in_tree_class->ForDriver(*stored);
  if (!storage_class.ok()) return storage_class.error();
  kube::PersistentVolumeClaim claim;
  claim.metadata.name = volume.spec.claim_ref->name;
  claim.metadata.namespace_ = volume.spec.claim_ref->namespace_;
  auto resolved = SecretReferenceFor(SecretKind::kProvisioner, storage_class->parameters,
                                     volume.metadata.name, &claim);
  if (!resolved.ok()) {
    return resolved.error().Wrap("failed to get secretreference for volume " +
                                 volume.metadata.name);
  }
  return resolved;
}

}  // namespace

base::Result<Secrets> DeletionSecretsOf(const kube::PersistentVolume& volume,
                                        const kube::Store<kube::StorageClass>& classes,
                                        ProvisionerApi& api,
                                        const KnownProvisioners* in_tree_class) {
  const std::string* name = AnnotationOf(volume.metadata, kDeletionSecretNameAnnotation);
  const std::string* ns = AnnotationOf(volume.metadata, kDeletionSecretNamespaceAnnotation);
  std::optional<kube::SecretReference> ref;
  if (name && ns) {
    if (name->empty() || ns->empty()) return Secrets();
    ref = kube::SecretReference{.name = *name, .namespace_ = *ns};
  } else {
    auto resolved = ClassSecretOf(volume, classes, in_tree_class);
    if (!resolved.ok()) return resolved.error();
    ref = *resolved;
  }
  if (!ref) return Secrets();
  auto secret = api.GetSecret(ref->namespace_, ref->name);
  if (!secret.ok()) {
    LOG_ERROR("Failed to get deletion secret, deleting without it")
        .With("PV", volume.metadata.name)
        .With("secret", ref->namespace_ + "/" + ref->name)
        .With("err", secret.error().message);
    return Secrets();
  }
  return Secrets(secret->data.begin(), secret->data.end());
}

}  // namespace provisioner
