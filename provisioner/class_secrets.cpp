#include "provisioner/class_secrets.h"

#include <map>

#include "csi_params/secret_templates.h"

namespace provisioner {
namespace {

using csi_params::SecretParameterKeys;

constexpr SecretParameterKeys kDefaultKeys{
    .name_key = "csi.storage.k8s.io/secret-name",
    .namespace_key = "csi.storage.k8s.io/secret-namespace",
    .what = "Default",
    .key_error_prefix = "failed to get default name and namespace template from params: "};

constexpr SecretParameterKeys KeysOf(SecretKind kind) {
  switch (kind) {
    case SecretKind::kProvisioner:
      return {.name_key = "csi.storage.k8s.io/provisioner-secret-name",
              .namespace_key = "csi.storage.k8s.io/provisioner-secret-namespace",
              .what = "Provisioner",
              .deprecated_name_key = "csiProvisionerSecretName",
              .deprecated_namespace_key = "csiProvisionerSecretNamespace"};
    case SecretKind::kControllerPublish:
      return {.name_key = "csi.storage.k8s.io/controller-publish-secret-name",
              .namespace_key = "csi.storage.k8s.io/controller-publish-secret-namespace",
              .what = "ControllerPublish",
              .deprecated_name_key = "csiControllerPublishSecretName",
              .deprecated_namespace_key = "csiControllerPublishSecretNamespace"};
    case SecretKind::kNodeStage:
      return {.name_key = "csi.storage.k8s.io/node-stage-secret-name",
              .namespace_key = "csi.storage.k8s.io/node-stage-secret-namespace",
              .what = "NodeStage",
              .deprecated_name_key = "csiNodeStageSecretName",
              .deprecated_namespace_key = "csiNodeStageSecretNamespace"};
    case SecretKind::kNodePublish:
      return {.name_key = "csi.storage.k8s.io/node-publish-secret-name",
              .namespace_key = "csi.storage.k8s.io/node-publish-secret-namespace",
              .what = "NodePublish",
              .deprecated_name_key = "csiNodePublishSecretName",
              .deprecated_namespace_key = "csiNodePublishSecretNamespace"};
    case SecretKind::kControllerExpand:
      return {.name_key = "csi.storage.k8s.io/controller-expand-secret-name",
              .namespace_key = "csi.storage.k8s.io/controller-expand-secret-namespace",
              .what = "ControllerExpand"};
    case SecretKind::kNodeExpand:
      return {.name_key = "csi.storage.k8s.io/node-expand-secret-name",
              .namespace_key = "csi.storage.k8s.io/node-expand-secret-namespace",
              .what = "NodeExpand"};
    case SecretKind::kControllerModify:
      return {.name_key = "csi.storage.k8s.io/controller-modify-secret-name",
              .namespace_key = "csi.storage.k8s.io/controller-modify-secret-namespace",
              .what = "ControllerModify"};
  }
  return kDefaultKeys;
}

// Every key under the reserved prefix a class may carry: the fstype and the
// name and namespace key of each kind and of the default.
constexpr auto kKnownReservedKeys = [] {
  std::array<std::string_view, 2 + 2 * (kAllSecretKinds.size() + 1)> keys{};
  size_t i = 0;
  keys[i++] = "csi.storage.k8s.io/fstype";
  keys[i++] = kDefaultKeys.name_key;
  keys[i++] = kDefaultKeys.namespace_key;
  for (SecretKind kind : kAllSecretKinds) {
    keys[i++] = KeysOf(kind).name_key;
    keys[i++] = KeysOf(kind).namespace_key;
  }
  return keys;
}();

}  // namespace

std::span<const std::string_view> KnownReservedKeys() { return kKnownReservedKeys; }

base::Result<std::optional<kube::SecretReference>> SecretReferenceFor(
    SecretKind kind, const kube::StringMap& parameters, std::string_view volume_name,
    const kube::PersistentVolumeClaim* claim) {
  // Only names may depend on what the claim's user chose (its name and
  // annotations); namespaces only on the PV name and the claim's namespace.
  csi_params::TemplateVariables namespace_variables{{"pv.name", volume_name}};
  if (claim) namespace_variables.emplace("pvc.namespace", claim->metadata.namespace_);
  csi_params::TemplateVariables name_variables = namespace_variables;
  std::map<std::string, std::string> annotation_tokens;
  if (claim) {
    name_variables.emplace("pvc.name", claim->metadata.name);
    for (const auto& [key, value] : claim->metadata.annotations) {
      annotation_tokens.emplace("pvc.annotations['" + std::string(key) + "']", std::string(value));
    }
    for (const auto& [token, value] : annotation_tokens) name_variables.emplace(token, value);
  }
  auto ref =
      csi_params::SecretReferenceOf(KeysOf(kind), parameters, namespace_variables, name_variables);
  if (!ref.ok() || ref->has_value()) return ref;
  return csi_params::SecretReferenceOf(kDefaultKeys, parameters, namespace_variables,
                                       name_variables);
}

}  // namespace provisioner
