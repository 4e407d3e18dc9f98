#include "migration/azure_file.h"

#include <regex>
#include <string>
#include <vector>

#include "migration/ascii.h"
#include "migration/drivers.h"
#include "migration/go_text.h"
#include "migration/split.h"

namespace migration {
namespace {

constexpr std::string_view kResourceGroupAnnotation = "kubernetes.io/azure-file-resource-group";
constexpr std::string_view kDefaultSecretNamespace = "default";

// The parts of a handle <resource group>#<account>#<share>[#...] the
// in-tree source needs.
struct FileShareHandle {
  std::string resource_group;
  std::string account;
  std::string share;
};

base::Result<FileShareHandle> ParseFileShareHandle(const std::string& handle) {
  std::vector<std::string> parts = Split(handle, "#");
  if (parts.size() < 3) {
    return base::Error("error parsing volume id: " + GoQuote(handle) +
                       ", should at least contain two #");
  }
  return FileShareHandle{parts[0], parts[1], parts[2]};
}

// Share and secret named by the attributes (names in any case), the node
// stage secret taking precedence for the secret.
kube::AzureFilePersistentVolumeSource AzureFileFromAttributes(
    const kube::CSIPersistentVolumeSource& csi) {
  kube::AzureFilePersistentVolumeSource source;
  source.read_only = csi.read_only;
  for (const auto& [key, value] : csi.volume_attributes) {
    std::string name = LowerAscii(key);
    if (name == "sharename") source.share_name = value;
    if (name == "secretname") source.secret_name = value;
    if (name == "secretnamespace") source.secret_namespace = value;
  }
  const auto& stage_secret = csi.node_stage_secret_ref;
  if (stage_secret && !stage_secret->name.empty()) {
    source.secret_name = stage_secret->name;
    source.secret_namespace = stage_secret->namespace_;
  }
  return source;
}

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

base::Result<kube::AzureFilePersistentVolumeSource> AzureFileFromCsi(
    const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume& pv) {
  kube::AzureFilePersistentVolumeSource source = AzureFileFromAttributes(csi);
  // The handle is read only for what the attributes and secret left out.
  if (source.share_name.empty() || std::string_view(source.secret_name).empty()) {
    auto handle = ParseFileShareHandle(csi.volume_handle);
    if (!handle.ok()) return handle.error();
    if (source.share_name.empty()) source.share_name = handle->share;
    if (std::string_view(source.secret_name).empty()) {
      source.secret_name = "azure-storage-account-" + handle->account + "-secret";
    }
    if (!handle->resource_group.empty()) {
      pv.metadata.annotations[kResourceGroupAnnotation] = handle->resource_group;
    }
  }
  if (!source.secret_namespace) source.secret_namespace = std::string(kDefaultSecretNamespace);
  return source;
}

}  // namespace migration
