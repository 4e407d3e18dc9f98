// Codecs of the PersistentVolume sources; field names follow core/v1.
#include "kube/api/codec.h"

namespace kube {

using codec_internal::PutIfNonZero;
using codec_internal::PutIfNotEmpty;
using codec_internal::PutIfSet;
using codec_internal::PutIfTrue;
using codec_internal::ReadField;

void from_json(const nlohmann::json& j, SecretReference& ref) {
  ReadField(j, "name", ref.name);
  ReadField(j, "namespace", ref.namespace_);
}

void to_json(nlohmann::json& j, const SecretReference& ref) {
  j = nlohmann::json::object();
  PutIfNotEmpty(j, "name", ref.name);
  PutIfNotEmpty(j, "namespace", ref.namespace_);
}

void from_json(const nlohmann::json& j, CSIPersistentVolumeSource& source) {
  ReadField(j, "driver", source.driver);
  ReadField(j, "volumeHandle", source.volume_handle);
  ReadField(j, "readOnly", source.read_only);
  ReadField(j, "fsType", source.fs_type);
  ReadField(j, "volumeAttributes", source.volume_attributes);
  ReadField(j, "controllerPublishSecretRef", source.controller_publish_secret_ref);
}

void to_json(nlohmann::json& j, const CSIPersistentVolumeSource& source) {
  j = {{"driver", source.driver}, {"volumeHandle", source.volume_handle}};
  PutIfTrue(j, "readOnly", source.read_only);
  PutIfNotEmpty(j, "fsType", source.fs_type);
  PutIfNotEmpty(j, "volumeAttributes", source.volume_attributes);
  PutIfSet(j, "controllerPublishSecretRef", source.controller_publish_secret_ref);
}

void from_json(const nlohmann::json& j, GCEPersistentDiskVolumeSource& source) {
  ReadField(j, "pdName", source.pd_name);
  ReadField(j, "fsType", source.fs_type);
  ReadField(j, "partition", source.partition);
  ReadField(j, "readOnly", source.read_only);
}

void to_json(nlohmann::json& j, const GCEPersistentDiskVolumeSource& source) {
  j = {{"pdName", source.pd_name}};
  PutIfNotEmpty(j, "fsType", source.fs_type);
  PutIfNonZero(j, "partition", source.partition);
  PutIfTrue(j, "readOnly", source.read_only);
}

void from_json(const nlohmann::json& j, AWSElasticBlockStoreVolumeSource& source) {
  ReadField(j, "volumeID", source.volume_id);
  ReadField(j, "fsType", source.fs_type);
  ReadField(j, "partition", source.partition);
  ReadField(j, "readOnly", source.read_only);
}

void to_json(nlohmann::json& j, const AWSElasticBlockStoreVolumeSource& source) {
  j = {{"volumeID", source.volume_id}};
  PutIfNotEmpty(j, "fsType", source.fs_type);
  PutIfNonZero(j, "partition", source.partition);
  PutIfTrue(j, "readOnly", source.read_only);
}

void from_json(const nlohmann::json& j, CinderPersistentVolumeSource& source) {
  ReadField(j, "volumeID", source.volume_id);
  ReadField(j, "fsType", source.fs_type);
  ReadField(j, "readOnly", source.read_only);
}

void to_json(nlohmann::json& j, const CinderPersistentVolumeSource& source) {
  j = {{"volumeID", source.volume_id}};
  PutIfNotEmpty(j, "fsType", source.fs_type);
  PutIfTrue(j, "readOnly", source.read_only);
}

void from_json(const nlohmann::json& j, AzureDiskVolumeSource& source) {
  ReadField(j, "diskURI", source.disk_uri);
  ReadField(j, "cachingMode", source.caching_mode);
  ReadField(j, "fsType", source.fs_type);
  ReadField(j, "kind", source.kind);
  ReadField(j, "readOnly", source.read_only);
}

void to_json(nlohmann::json& j, const AzureDiskVolumeSource& source) {
  j = {{"diskURI", source.disk_uri}};
  PutIfSet(j, "cachingMode", source.caching_mode);
  PutIfSet(j, "fsType", source.fs_type);
  PutIfSet(j, "kind", source.kind);
  PutIfSet(j, "readOnly", source.read_only);
}

void from_json(const nlohmann::json& j, AzureFilePersistentVolumeSource& source) {
  ReadField(j, "secretName", source.secret_name);
  ReadField(j, "secretNamespace", source.secret_namespace);
  ReadField(j, "shareName", source.share_name);
  ReadField(j, "readOnly", source.read_only);
}

void to_json(nlohmann::json& j, const AzureFilePersistentVolumeSource& source) {
  j = {{"secretName", source.secret_name}, {"shareName", source.share_name}};
  PutIfSet(j, "secretNamespace", source.secret_namespace);
  PutIfTrue(j, "readOnly", source.read_only);
}

void from_json(const nlohmann::json& j, VsphereVirtualDiskVolumeSource& source) {
  ReadField(j, "volumePath", source.volume_path);
  ReadField(j, "fsType", source.fs_type);
  ReadField(j, "storagePolicyName", source.storage_policy_name);
}

void to_json(nlohmann::json& j, const VsphereVirtualDiskVolumeSource& source) {
  j = {{"volumePath", source.volume_path}};
  PutIfNotEmpty(j, "fsType", source.fs_type);
  PutIfNotEmpty(j, "storagePolicyName", source.storage_policy_name);
}

void from_json(const nlohmann::json& j, PortworxVolumeSource& source) {
  ReadField(j, "volumeID", source.volume_id);
  ReadField(j, "fsType", source.fs_type);
}

void to_json(nlohmann::json& j, const PortworxVolumeSource& source) {
  j = {{"volumeID", source.volume_id}};
  PutIfNotEmpty(j, "fsType", source.fs_type);
}

}  // namespace kube
