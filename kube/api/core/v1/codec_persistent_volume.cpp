#include <array>
#include <string_view>
#include <type_traits>
#include <variant>

#include "kube/api/codec.h"

namespace kube {

using codec_internal::PutIfNotEmpty;
using codec_internal::PutIfSet;
using codec_internal::ReadField;
using codec_internal::ReadPath;

namespace {

// The JSON field of each source alternative we decode.
constexpr std::string_view FieldOf(const CSIPersistentVolumeSource&) { return "csi"; }
constexpr std::string_view FieldOf(const GCEPersistentDiskVolumeSource&) {
  return "gcePersistentDisk";
}
constexpr std::string_view FieldOf(const AWSElasticBlockStoreVolumeSource&) {
  return "awsElasticBlockStore";
}
constexpr std::string_view FieldOf(const CinderPersistentVolumeSource&) { return "cinder"; }
constexpr std::string_view FieldOf(const AzureDiskVolumeSource&) { return "azureDisk"; }
constexpr std::string_view FieldOf(const AzureFilePersistentVolumeSource&) { return "azureFile"; }
constexpr std::string_view FieldOf(const VsphereVirtualDiskVolumeSource&) {
  return "vsphereVolume";
}
constexpr std::string_view FieldOf(const PortworxVolumeSource&) { return "portworxVolume"; }

// The remaining PersistentVolumeSource fields of core/v1: neither CSI nor migratable.
constexpr std::array<std::string_view, 14> kOtherSourceFields = {"hostPath",
                                                                 "glusterfs",
                                                                 "nfs",
                                                                 "rbd",
                                                                 "iscsi",
                                                                 "cephfs",
                                                                 "fc",
                                                                 "flocker",
                                                                 "flexVolume",
                                                                 "quobyte",
                                                                 "photonPersistentDisk",
                                                                 "scaleIO",
                                                                 "local",
                                                                 "storageos"};

// Decodes one source field if present. Callers go in precedence order, so the
// first one found is kept and later ones are only counted.
template <class Source>
void ReadSource(const nlohmann::json& spec_json, PersistentVolumeSpec& spec) {
  Source source;
  auto it = spec_json.find(FieldOf(source));
  if (it == spec_json.end() || it->is_null()) return;
  if (!std::holds_alternative<std::monostate>(spec.source)) {
    ++spec.extra_sources;
    return;
  }
  ReadField(spec_json, FieldOf(source), source);
  spec.source = std::move(source);
}

void ReadOtherSources(const nlohmann::json& spec_json, PersistentVolumeSpec& spec) {
  for (std::string_view field : kOtherSourceFields) {
    auto it = spec_json.find(field);
    if (it == spec_json.end() || it->is_null()) continue;
    if (std::holds_alternative<std::monostate>(spec.source)) {
      spec.source = OtherVolumeSource{std::string(field)};
    } else {
      ++spec.extra_sources;
    }
  }
}

void WriteSource(nlohmann::json& spec_json, const PersistentVolumeSource& source) {
  std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, OtherVolumeSource>) {
          spec_json[s.name] = nlohmann::json::object();  // its content was not kept
        } else if constexpr (!std::is_same_v<S, std::monostate>) {
          spec_json[FieldOf(s)] = s;
        }
      },
      source);
}

}  // namespace

void from_json(const nlohmann::json& j, PersistentVolume& pv) {
  ReadField(j, "metadata", pv.metadata);
  ReadField(j, "spec", pv.spec);
  ReadPath(j, {"status", "phase"}, pv.status.phase);
}

void to_json(nlohmann::json& j, const PersistentVolume& pv) {
  j = codec_internal::NewObjectJson<PersistentVolume>();
  j["metadata"] = pv.metadata;
  j["spec"] = pv.spec;
  if (!pv.status.phase.empty()) j["status"] = {{"phase", pv.status.phase}};
}

void from_json(const nlohmann::json& j, PersistentVolumeSpec& spec) {
  ReadPath(j, {"capacity", "storage"}, spec.capacity_storage);
  ReadField(j, "accessModes", spec.access_modes);
  ReadField(j, "volumeMode", spec.volume_mode);
  ReadField(j, "mountOptions", spec.mount_options);
  ReadField(j, "claimRef", spec.claim_ref);
  ReadField(j, "persistentVolumeReclaimPolicy", spec.persistent_volume_reclaim_policy);
  ReadField(j, "storageClassName", spec.storage_class_name);
  ReadPath(j, {"nodeAffinity", "required", "nodeSelectorTerms"}, spec.node_affinity);
  ReadSource<GCEPersistentDiskVolumeSource>(j, spec);
  ReadSource<AWSElasticBlockStoreVolumeSource>(j, spec);
  ReadSource<CinderPersistentVolumeSource>(j, spec);
  ReadSource<AzureDiskVolumeSource>(j, spec);
  ReadSource<AzureFilePersistentVolumeSource>(j, spec);
  ReadSource<VsphereVirtualDiskVolumeSource>(j, spec);
  ReadSource<PortworxVolumeSource>(j, spec);
  ReadSource<CSIPersistentVolumeSource>(j, spec);
  ReadOtherSources(j, spec);
}

void to_json(nlohmann::json& j, const PersistentVolumeSpec& spec) {
  j = nlohmann::json::object();
  if (!spec.capacity_storage.empty()) j["capacity"] = {{"storage", spec.capacity_storage}};
  PutIfNotEmpty(j, "accessModes", spec.access_modes);
  PutIfNotEmpty(j, "volumeMode", spec.volume_mode);
  PutIfNotEmpty(j, "mountOptions", spec.mount_options);
  PutIfSet(j, "claimRef", spec.claim_ref);
  PutIfNotEmpty(j, "persistentVolumeReclaimPolicy", spec.persistent_volume_reclaim_policy);
  PutIfNotEmpty(j, "storageClassName", spec.storage_class_name);
  if (!spec.node_affinity.empty()) {
    j["nodeAffinity"]["required"]["nodeSelectorTerms"] = spec.node_affinity;
  }
  WriteSource(j, spec.source);
}

void from_json(const nlohmann::json& j, ClaimReference& ref) {
  ReadField(j, "namespace", ref.namespace_);
  ReadField(j, "name", ref.name);
  ReadField(j, "uid", ref.uid);
}

void to_json(nlohmann::json& j, const ClaimReference& ref) {
  j = nlohmann::json::object();
  PutIfNotEmpty(j, "namespace", ref.namespace_);
  PutIfNotEmpty(j, "name", ref.name);
  PutIfNotEmpty(j, "uid", ref.uid);
}

void from_json(const nlohmann::json& j, NodeSelectorTerm& term) {
  ReadField(j, "matchExpressions", term.match_expressions);
}

void to_json(nlohmann::json& j, const NodeSelectorTerm& term) {
  j = nlohmann::json::object();
  PutIfNotEmpty(j, "matchExpressions", term.match_expressions);
}

void from_json(const nlohmann::json& j, NodeSelectorRequirement& requirement) {
  ReadField(j, "key", requirement.key);
  ReadField(j, "operator", requirement.operator_);
  ReadField(j, "values", requirement.values);
}

void to_json(nlohmann::json& j, const NodeSelectorRequirement& requirement) {
  j = {{"key", requirement.key}, {"operator", requirement.operator_}};
  PutIfNotEmpty(j, "values", requirement.values);
}

}  // namespace kube
