#include "migration/azure_file.h"

#include <regex>
#include <string>

#include "migration/drivers.h"

namespace migration {
namespace {

constexpr std::string_view kResourceGroupAnnotation = "kubernetes.io/azure-file-resource-group";

std::string StorageAccountOf(const std::string& secret_name) {
  static const std::regex kSecretName("azure-storage-account-(.+)-secret");
  std::smatch match;
  if (std::regex_search(secret_name, match, kSecretName)) return match[1].str();
  return secret_name;
}

}  // namespace

base::Result<kube::CSIPersistentVolumeSource> TranslateAzureFile(
    const kube::AzureFilePersistentVolumeSource& source, const kube::PersistentVolume& pv) {
  std::string secret_namespace;
  if (source.secret_namespace) {
    secret_namespace = *source.secret_namespace;
  } else if (pv.spec.claim_ref) {
    secret_namespace = pv.spec.claim_ref->namespace_;
  }
  if (secret_namespace.empty()) {
    return base::Error("could not find a secret namespace in PersistentVolumeSource or ClaimRef");
  }
  auto resource_group = pv.metadata.annotations.find(kResourceGroupAnnotation);
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kAzureFileDriver);
  csi.volume_handle =
      (resource_group == pv.metadata.annotations.end() ? "" : resource_group->second) + "#" +
      StorageAccountOf(source.secret_name) + "#" + source.share_name + "#" + pv.metadata.name +
      "#" + secret_namespace;
  csi.read_only = source.read_only;
  csi.volume_attributes["sharename"] = source.share_name;
  return csi;
}

}  // namespace migration
