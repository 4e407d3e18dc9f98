// PersistentVolume (core/v1), reduced to what attach, detach, finalizer
// handling and CSI migration read. The volume source is a variant so a CSI PV
// (almost all of a cache) pays only for the CSI source; each in-tree source
// keeps exactly the fields the in-tree -> CSI translation reads (docs/migration.md
// §2), with std::optional where that translation tells "absent" from "empty".
// Fields of those sources the translation ignores (Cinder secretRef, Azure Disk
// diskName, vSphere storagePolicyID, Portworx readOnly) are not kept.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kube/api/object_meta.h"
#include "kube/api/string_map.h"

namespace kube {

struct SecretReference {
  std::string name;
  std::string namespace_;

  bool operator==(const SecretReference&) const = default;
};

struct CSIPersistentVolumeSource {
  std::string driver;
  std::string volume_handle;
  std::string fs_type;
  bool read_only = false;
  StringMap volume_attributes;
  // The other secret refs (node stage/publish, expand) are not used by the attacher.
  std::optional<SecretReference> controller_publish_secret_ref;

  bool operator==(const CSIPersistentVolumeSource&) const = default;
};

struct GCEPersistentDiskVolumeSource {
  std::string pd_name;
  std::string fs_type;
  int32_t partition = 0;
  bool read_only = false;

  bool operator==(const GCEPersistentDiskVolumeSource&) const = default;
};

struct AWSElasticBlockStoreVolumeSource {
  std::string volume_id;
  std::string fs_type;
  int32_t partition = 0;
  bool read_only = false;

  bool operator==(const AWSElasticBlockStoreVolumeSource&) const = default;
};

struct CinderPersistentVolumeSource {
  std::string volume_id;
  std::string fs_type;
  bool read_only = false;

  bool operator==(const CinderPersistentVolumeSource&) const = default;
};

// Go pointers in the API: translation copies each one only when it is set.
struct AzureDiskVolumeSource {
  std::string disk_uri;
  std::optional<std::string> caching_mode;
  std::optional<std::string> fs_type;
  std::optional<std::string> kind;
  std::optional<bool> read_only;

  bool operator==(const AzureDiskVolumeSource&) const = default;
};

struct AzureFilePersistentVolumeSource {
  std::string secret_name;
  std::optional<std::string> secret_namespace;  // absent -> claimRef namespace
  std::string share_name;
  bool read_only = false;

  bool operator==(const AzureFilePersistentVolumeSource&) const = default;
};

struct VsphereVirtualDiskVolumeSource {
  std::string volume_path;
  std::string fs_type;
  std::string storage_policy_name;

  bool operator==(const VsphereVirtualDiskVolumeSource&) const = default;
};

struct PortworxVolumeSource {
  std::string volume_id;
  std::string fs_type;

  bool operator==(const PortworxVolumeSource&) const = default;
};

// A source the attacher can neither attach nor translate (nfs, hostPath, ...):
// only its field name is kept, for error messages.
struct OtherVolumeSource {
  std::string name;

  bool operator==(const OtherVolumeSource&) const = default;
};

// std::monostate = no source at all.
using PersistentVolumeSource =
    std::variant<std::monostate, CSIPersistentVolumeSource, GCEPersistentDiskVolumeSource,
                 AWSElasticBlockStoreVolumeSource, CinderPersistentVolumeSource,
                 AzureDiskVolumeSource, AzureFilePersistentVolumeSource,
                 VsphereVirtualDiskVolumeSource, PortworxVolumeSource, OtherVolumeSource>;

// The subset of an ObjectReference that a PV's claimRef needs.
struct ClaimReference {
  std::string namespace_;
  std::string name;
  std::string uid;

  bool operator==(const ClaimReference&) const = default;
};

struct NodeSelectorRequirement {
  std::string key;
  std::string operator_;  // In, NotIn, Exists, DoesNotExist, Gt, Lt
  std::vector<std::string> values;

  bool operator==(const NodeSelectorRequirement&) const = default;
};

// matchFields are not kept: topology is expressed with matchExpressions.
struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;

  bool operator==(const NodeSelectorTerm&) const = default;
};

// Also the type of VolumeAttachment.spec.source.inlineVolumeSpec.
struct PersistentVolumeSpec {
  std::string capacity_storage;  // a resource.Quantity, e.g. "10Gi"
  std::vector<std::string> access_modes;
  std::string volume_mode;  // "" = Filesystem
  std::vector<std::string> mount_options;
  std::optional<ClaimReference> claim_ref;
  std::string persistent_volume_reclaim_policy;
  std::string storage_class_name;
  // nodeAffinity.required.nodeSelectorTerms; empty = no node affinity.
  std::vector<NodeSelectorTerm> node_affinity;
  PersistentVolumeSource source;
  // Source fields present in the JSON beyond the one kept in `source`. The API
  // server allows one, but a decoder must not hide a violation. When several
  // are present, `source` keeps an in-tree one first (upstream translates it,
  // replacing any csi source), then csi, then another.
  uint8_t extra_sources = 0;

  // Number of volume source fields the JSON carried (0, 1, or more).
  int CountSources() const {
    return (std::holds_alternative<std::monostate>(source) ? 0 : 1) + extra_sources;
  }

  bool operator==(const PersistentVolumeSpec&) const = default;
};

struct PersistentVolumeStatus {
  std::string phase;

  bool operator==(const PersistentVolumeStatus&) const = default;
};

struct PersistentVolume {
  static constexpr std::string_view kKind = "PersistentVolume";
  static constexpr std::string_view kApiVersion = "v1";

  ObjectMeta metadata;
  PersistentVolumeSpec spec;
  PersistentVolumeStatus status;

  bool operator==(const PersistentVolume&) const = default;
};

}  // namespace kube
