#include "migration/portworx.h"

#include <array>
#include <string>

#include "migration/ascii.h"
#include "migration/drivers.h"

namespace migration {
namespace {

constexpr std::string_view kAuthSecretName = "openstorage.io/auth-secret-name";
constexpr std::string_view kAuthSecretNamespace = "openstorage.io/auth-secret-namespace";
// The operations the external provisioner reads csi.storage.k8s.io/<op>-secret-*
// parameters for; Portworx's one auth secret serves them all.
constexpr std::array<std::string_view, 6> kSecretOperations = {
    "provisioner", "controller-publish", "node-publish",
    "node-stage",  "controller-expand",  "node-expand",
};

// Sets csi.storage.k8s.io/<op>-secret-<suffix> = `value` for every operation.
void FanOutSecretParameter(kube::StringMap& parameters, std::string_view suffix,
                           const std::string& value) {
  for (std::string_view operation : kSecretOperations) {
    parameters["csi.storage.k8s.io/" + std::string(operation) + "-secret-" + std::string(suffix)] =
        value;
  }
}

}  // namespace

kube::CSIPersistentVolumeSource TranslatePortworx(const kube::PortworxVolumeSource& source,
                                                  const kube::PersistentVolume& pv) {
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kPortworxDriver);
  csi.volume_handle = source.volume_id;
  csi.fs_type = source.fs_type;
  const kube::StringMap& annotations = pv.metadata.annotations;
  auto name = annotations.find(kAuthSecretName);
  auto namespace_ = annotations.find(kAuthSecretNamespace);
  if (name != annotations.end() && namespace_ != annotations.end()) {
    csi.controller_publish_secret_ref = kube::SecretReference{name->second, namespace_->second};
  }
  return csi;
}

kube::PortworxVolumeSource PortworxFromCsi(const kube::CSIPersistentVolumeSource& csi) {
  return kube::PortworxVolumeSource{csi.volume_handle, csi.fs_type};
}

kube::StorageClass TranslatePortworxStorageClass(kube::StorageClass storage_class) {
  kube::StringMap parameters;
  for (const auto& [key, value] : storage_class.parameters) {
    std::string name = LowerAscii(key);
    if (name == kAuthSecretName) {
      FanOutSecretParameter(parameters, "name", value);
    } else if (name == kAuthSecretNamespace) {
      FanOutSecretParameter(parameters, "namespace", value);
    } else {
      parameters[key] = value;
    }
  }
  storage_class.parameters = std::move(parameters);
  storage_class.provisioner = std::string(kPortworxDriver);
  return storage_class;
}

}  // namespace migration
