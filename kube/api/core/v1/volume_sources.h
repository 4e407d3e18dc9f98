// The PersistentVolume sources (core/v1 PersistentVolumeSource), reduced to
// what attach, detach and CSI migration read. A PV holds one of them in a
// variant, so a CSI PV (almost all of a cache) pays only for the CSI source;
// each in-tree source keeps exactly the fields the in-tree -> CSI translation
// reads (docs/migration.md §2) or the CSI -> in-tree one writes (§8.2), with
// std::optional where that translation tells "absent" from "empty". Fields
// both translations ignore (Cinder secretRef, vSphere storagePolicyID) are
// not kept, nor Portworx readOnly, which only CSI -> in-tree copies and a
// provisioned CSI PV never sets. kJsonKey is the PersistentVolumeSpec member that
// carries each source. Driver names and fsTypes repeat across a cache's PVs:
// interned (InternedString), they cost a pointer each, and the in-tree sources
// stay no larger than the CSI one, which alone sizes the source variant.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>

#include "kube/api/field.h"
#include "kube/api/heap_optional.h"
#include "kube/api/interned_string.h"
#include "kube/api/string_map.h"

namespace kube {

struct SecretReference {
  std::string name;
  std::string namespace_;

  bool operator==(const SecretReference&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("name", &SecretReference::name),
        Field("namespace", &SecretReference::namespace_),
    };
  }
};

struct CSIPersistentVolumeSource {
  static constexpr std::string_view kJsonKey = "csi";

  InternedString driver;
  std::string volume_handle;
  InternedString fs_type;
  bool read_only = false;
  StringMap volume_attributes;
  // Most drivers need no secrets: on the heap, an empty reference costs a
  // pointer. The provisioner writes them all; the attacher reads the first.
  HeapOptional<SecretReference> controller_publish_secret_ref;
  HeapOptional<SecretReference> node_stage_secret_ref = {};
  HeapOptional<SecretReference> node_publish_secret_ref = {};
  HeapOptional<SecretReference> controller_expand_secret_ref = {};
  HeapOptional<SecretReference> node_expand_secret_ref = {};

  bool operator==(const CSIPersistentVolumeSource&) const = default;

  static constexpr auto Fields() {
    using S = CSIPersistentVolumeSource;
    return std::tuple{
        Field("driver", &S::driver, Emit::kAlways),
        Field("volumeHandle", &S::volume_handle, Emit::kAlways),
        Field("readOnly", &S::read_only),
        Field("fsType", &S::fs_type),
        Field("volumeAttributes", &S::volume_attributes),
        Field("controllerPublishSecretRef", &S::controller_publish_secret_ref),
        Field("nodeStageSecretRef", &S::node_stage_secret_ref),
        Field("nodePublishSecretRef", &S::node_publish_secret_ref),
        Field("controllerExpandSecretRef", &S::controller_expand_secret_ref),
        Field("nodeExpandSecretRef", &S::node_expand_secret_ref),
    };
  }
};

struct GCEPersistentDiskVolumeSource {
  static constexpr std::string_view kJsonKey = "gcePersistentDisk";

  std::string pd_name;
  InternedString fs_type;
  int32_t partition = 0;
  bool read_only = false;

  bool operator==(const GCEPersistentDiskVolumeSource&) const = default;

  static constexpr auto Fields() {
    using S = GCEPersistentDiskVolumeSource;
    return std::tuple{
        Field("pdName", &S::pd_name, Emit::kAlways),
        Field("fsType", &S::fs_type),
        Field("partition", &S::partition),
        Field("readOnly", &S::read_only),
    };
  }
};

struct AWSElasticBlockStoreVolumeSource {
  static constexpr std::string_view kJsonKey = "awsElasticBlockStore";

  std::string volume_id;
  InternedString fs_type;
  int32_t partition = 0;
  bool read_only = false;

  bool operator==(const AWSElasticBlockStoreVolumeSource&) const = default;

  static constexpr auto Fields() {
    using S = AWSElasticBlockStoreVolumeSource;
    return std::tuple{
        Field("volumeID", &S::volume_id, Emit::kAlways),
        Field("fsType", &S::fs_type),
        Field("partition", &S::partition),
        Field("readOnly", &S::read_only),
    };
  }
};

struct CinderPersistentVolumeSource {
  static constexpr std::string_view kJsonKey = "cinder";

  std::string volume_id;
  InternedString fs_type;
  bool read_only = false;

  bool operator==(const CinderPersistentVolumeSource&) const = default;

  static constexpr auto Fields() {
    using S = CinderPersistentVolumeSource;
    return std::tuple{
        Field("volumeID", &S::volume_id, Emit::kAlways),
        Field("fsType", &S::fs_type),
        Field("readOnly", &S::read_only),
    };
  }
};

// Go pointers in the API: translation copies each one only when it is set.
// The strings are HeapOptional so that this rare source stays smaller than
// the CSI one, which then alone decides the size of every PV's source variant.
struct AzureDiskVolumeSource {
  static constexpr std::string_view kJsonKey = "azureDisk";

  std::string disk_uri;
  HeapOptional<std::string> caching_mode;
  HeapOptional<std::string> fs_type;
  HeapOptional<std::string> kind;
  std::optional<bool> read_only;
  // Required by the API server on create. The in-tree -> CSI direction
  // ignores it; the CSI -> in-tree direction writes it. Last, so that
  // positional initializers of the fields above stay valid.
  std::string disk_name = {};

  bool operator==(const AzureDiskVolumeSource&) const = default;

  static constexpr auto Fields() {
    using S = AzureDiskVolumeSource;
    return std::tuple{
        Field("diskName", &S::disk_name, Emit::kAlways),
        Field("diskURI", &S::disk_uri, Emit::kAlways),
        Field("cachingMode", &S::caching_mode),
        Field("fsType", &S::fs_type),
        Field("kind", &S::kind),
        Field("readOnly", &S::read_only),
    };
  }
};

// secretNamespace is rarely set: on the heap, for the same reason as above.
// One storage account's secret serves all its shares: the secret's name is
// interned, like the driver names.
struct AzureFilePersistentVolumeSource {
  static constexpr std::string_view kJsonKey = "azureFile";

  InternedString secret_name;
  HeapOptional<std::string> secret_namespace;  // absent -> claimRef namespace
  std::string share_name;
  bool read_only = false;

  bool operator==(const AzureFilePersistentVolumeSource&) const = default;

  static constexpr auto Fields() {
    using S = AzureFilePersistentVolumeSource;
    return std::tuple{
        Field("secretName", &S::secret_name, Emit::kAlways),
        Field("secretNamespace", &S::secret_namespace),
        Field("shareName", &S::share_name, Emit::kAlways),
        Field("readOnly", &S::read_only),
    };
  }
};

struct VsphereVirtualDiskVolumeSource {
  static constexpr std::string_view kJsonKey = "vsphereVolume";

  std::string volume_path;
  InternedString fs_type;
  std::string storage_policy_name;

  bool operator==(const VsphereVirtualDiskVolumeSource&) const = default;

  static constexpr auto Fields() {
    using S = VsphereVirtualDiskVolumeSource;
    return std::tuple{
        Field("volumePath", &S::volume_path, Emit::kAlways),
        Field("fsType", &S::fs_type),
        Field("storagePolicyName", &S::storage_policy_name),
    };
  }
};

struct PortworxVolumeSource {
  static constexpr std::string_view kJsonKey = "portworxVolume";

  std::string volume_id;
  InternedString fs_type;

  bool operator==(const PortworxVolumeSource&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("volumeID", &PortworxVolumeSource::volume_id, Emit::kAlways),
        Field("fsType", &PortworxVolumeSource::fs_type),
    };
  }
};

// A source the attacher can neither attach nor translate (nfs, hostPath, ...):
// only its key is kept, for error messages, and its content is not, so it
// encodes as an empty object.
struct OtherVolumeSource {
  // The remaining PersistentVolumeSource members of core/v1.
  static constexpr std::array<std::string_view, 14> kJsonKeys = {"hostPath",
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

  std::string name;

  bool operator==(const OtherVolumeSource&) const = default;

  static constexpr auto Fields() { return std::tuple<>(); }
};

// std::monostate = no source at all.
using PersistentVolumeSource =
    std::variant<std::monostate, CSIPersistentVolumeSource, GCEPersistentDiskVolumeSource,
                 AWSElasticBlockStoreVolumeSource, CinderPersistentVolumeSource,
                 AzureDiskVolumeSource, AzureFilePersistentVolumeSource,
                 VsphereVirtualDiskVolumeSource, PortworxVolumeSource, OtherVolumeSource>;

}  // namespace kube
