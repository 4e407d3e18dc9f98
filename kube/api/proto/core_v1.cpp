#include "kube/api/proto/core_v1.h"

#include <string_view>
#include <tuple>
#include <utility>
#include <variant>

#include "kube/api/proto/fields.h"
#include "kube/api/proto/meta_v1.h"

namespace kube {

using proto::Bind;
using proto::ReadFields;
using proto::WireReader;

// The messages below are read only inside this file; static, they stay
// visible to argument-dependent lookup from fields.h.

static void ReadProto(WireReader& in, SecretReference& ref) {
  ReadFields(in, Bind(1, "name", ref.name), Bind(2, "namespace", ref.namespace_));
}

static void ReadProto(WireReader& in, CSIPersistentVolumeSource& s) {
  ReadFields(in, Bind(1, "driver", s.driver), Bind(2, "volumeHandle", s.volume_handle),
             Bind(3, "readOnly", s.read_only), Bind(4, "fsType", s.fs_type),
             Bind(5, "volumeAttributes", s.volume_attributes),
             Bind(6, "controllerPublishSecretRef", s.controller_publish_secret_ref),
             Bind(7, "nodeStageSecretRef", s.node_stage_secret_ref),
             Bind(8, "nodePublishSecretRef", s.node_publish_secret_ref),
             Bind(9, "controllerExpandSecretRef", s.controller_expand_secret_ref),
             Bind(10, "nodeExpandSecretRef", s.node_expand_secret_ref));
}

static void ReadProto(WireReader& in, GCEPersistentDiskVolumeSource& s) {
  ReadFields(in, Bind(1, "pdName", s.pd_name), Bind(2, "fsType", s.fs_type),
             Bind(3, "partition", s.partition), Bind(4, "readOnly", s.read_only));
}

static void ReadProto(WireReader& in, AWSElasticBlockStoreVolumeSource& s) {
  ReadFields(in, Bind(1, "volumeID", s.volume_id), Bind(2, "fsType", s.fs_type),
             Bind(3, "partition", s.partition), Bind(4, "readOnly", s.read_only));
}

static void ReadProto(WireReader& in, CinderPersistentVolumeSource& s) {
  ReadFields(in, Bind(1, "volumeID", s.volume_id), Bind(2, "fsType", s.fs_type),
             Bind(3, "readOnly", s.read_only));
}

static void ReadProto(WireReader& in, AzureDiskVolumeSource& s) {
  ReadFields(in, Bind(1, "diskName", s.disk_name), Bind(2, "diskURI", s.disk_uri),
             Bind(3, "cachingMode", s.caching_mode), Bind(4, "fsType", s.fs_type),
             Bind(5, "readOnly", s.read_only), Bind(6, "kind", s.kind));
}

static void ReadProto(WireReader& in, AzureFilePersistentVolumeSource& s) {
  ReadFields(in, Bind(1, "secretName", s.secret_name), Bind(2, "shareName", s.share_name),
             Bind(3, "readOnly", s.read_only), Bind(4, "secretNamespace", s.secret_namespace));
}

static void ReadProto(WireReader& in, VsphereVirtualDiskVolumeSource& s) {
  ReadFields(in, Bind(1, "volumePath", s.volume_path), Bind(2, "fsType", s.fs_type),
             Bind(3, "storagePolicyName", s.storage_policy_name));
}

static void ReadProto(WireReader& in, PortworxVolumeSource& s) {
  ReadFields(in, Bind(1, "volumeID", s.volume_id), Bind(2, "fsType", s.fs_type));
}

static void ReadProto(WireReader& in, ClaimReference& ref) {
  ReadFields(in, Bind(1, "kind", ref.kind), Bind(2, "namespace", ref.namespace_),
             Bind(3, "name", ref.name), Bind(4, "uid", ref.uid),
             Bind(5, "apiVersion", ref.api_version),
             Bind(6, "resourceVersion", ref.resource_version));
}

static void ReadProto(WireReader& in, NodeSelectorRequirement& requirement) {
  ReadFields(in, Bind(1, "key", requirement.key), Bind(2, "operator", requirement.operator_),
             Bind(3, "values", requirement.values));
}

static void ReadProto(WireReader& in, NodeSelectorTerm& term) {
  ReadFields(in, Bind(1, "matchExpressions", term.match_expressions),
             Bind(2, "matchFields", term.match_fields));
}

static void ReadProto(WireReader& in, PersistentVolumeStatus& status) {
  ReadFields(in, Bind(1, "phase", status.phase));
}

namespace {

// The rank PersistentVolumeSourceField gives a source (persistent_volume.h):
// its place in Kept, the others after them, no source last.
int RankOf(const PersistentVolumeSource& source) {
  using Kept = PersistentVolumeSourceField::Kept;
  return std::visit(
      [](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, std::monostate>) {
          return static_cast<int>(std::tuple_size_v<Kept> + 1);
        } else if constexpr (std::is_same_v<S, OtherVolumeSource>) {
          return static_cast<int>(std::tuple_size_v<Kept>);
        } else {
          return []<size_t... I>(std::index_sequence<I...>) {
            int rank = 0;
            (void)((std::is_same_v<S, std::tuple_element_t<I, Kept>> ? (rank = I, true) : false) ||
                   ...);
            return rank;
          }
          (std::make_index_sequence<std::tuple_size_v<Kept>>());
        }
      },
      source);
}

// As the JSON decoder does (PersistentVolumeSourceField): one source is kept,
// the best-ranked, and the others are counted in extra_sources.
void Offer(PersistentVolumeSpec& spec, PersistentVolumeSource source) {
  if (std::holds_alternative<std::monostate>(spec.source)) {
    spec.source = std::move(source);
    return;
  }
  ++spec.extra_sources;
  if (RankOf(source) < RankOf(spec.source)) spec.source = std::move(source);
}

template <class Source>
auto Kept(uint32_t number, std::string_view name, PersistentVolumeSpec& spec) {
  return Bind(number, name, spec, [](WireReader& in, PersistentVolumeSpec& out) {
    Source source;
    proto::ReadValue(in, source);
    Offer(out, std::move(source));
  });
}

// A source the attacher neither attaches nor translates: only its name is kept.
auto Other(uint32_t number, std::string_view name, PersistentVolumeSpec& spec) {
  return Bind(number, name, spec, [name](WireReader& in, PersistentVolumeSpec& out) {
    in.ReadBytes();
    Offer(out, OtherVolumeSource{std::string(name)});
  });
}

// PersistentVolumeSource: one message member per source kind.
void ReadVolumeSource(WireReader& field, PersistentVolumeSpec& spec) {
  WireReader in = field.ReadMessage();
  ReadFields(in, Kept<GCEPersistentDiskVolumeSource>(1, "gcePersistentDisk", spec),
             Kept<AWSElasticBlockStoreVolumeSource>(2, "awsElasticBlockStore", spec),
             Other(3, "hostPath", spec), Other(4, "glusterfs", spec), Other(5, "nfs", spec),
             Other(6, "rbd", spec), Other(7, "iscsi", spec),
             Kept<CinderPersistentVolumeSource>(8, "cinder", spec), Other(9, "cephfs", spec),
             Other(10, "fc", spec), Other(11, "flocker", spec), Other(12, "flexVolume", spec),
             Kept<AzureFilePersistentVolumeSource>(13, "azureFile", spec),
             Kept<VsphereVirtualDiskVolumeSource>(14, "vsphereVolume", spec),
             Other(15, "quobyte", spec), Kept<AzureDiskVolumeSource>(16, "azureDisk", spec),
             Other(17, "photonPersistentDisk", spec),
             Kept<PortworxVolumeSource>(18, "portworxVolume", spec), Other(19, "scaleIO", spec),
             Other(20, "local", spec), Other(21, "storageos", spec),
             Kept<CSIPersistentVolumeSource>(22, "csi", spec));
}

// capacity: map<string, resource.Quantity {string string = 1}>; only "storage" is kept.
void ReadCapacityEntry(WireReader& field, PersistentVolumeSpec& spec) {
  WireReader entry = field.ReadMessage();
  std::string_view key, quantity;
  auto value = [](WireReader& in, std::string_view& text) {
    WireReader message = in.ReadMessage();
    ReadFields(message, Bind(1, "string", text));
  };
  ReadFields(entry, Bind(1, "key", key), Bind(2, "value", quantity, value));
  if (key == "storage") spec.capacity_storage = quantity;
}

// VolumeNodeAffinity {NodeSelector required = 1 {repeated NodeSelectorTerm nodeSelectorTerms = 1}}.
void ReadNodeAffinity(WireReader& field, std::vector<NodeSelectorTerm>& terms) {
  WireReader affinity = field.ReadMessage();
  auto required = [](WireReader& in, std::vector<NodeSelectorTerm>& out) {
    WireReader selector = in.ReadMessage();
    ReadFields(selector, Bind(1, "nodeSelectorTerms", out));
  };
  ReadFields(affinity, Bind(1, "required", terms, required));
}

}  // namespace

void ReadProto(WireReader& in, PersistentVolumeSpec& spec) {
  ReadFields(in, Bind(1, "capacity", spec, ReadCapacityEntry),
             Bind(2, "persistentVolumeSource", spec, ReadVolumeSource),
             Bind(3, "accessModes", spec.access_modes), Bind(4, "claimRef", spec.claim_ref),
             Bind(5, "persistentVolumeReclaimPolicy", spec.persistent_volume_reclaim_policy),
             Bind(6, "storageClassName", spec.storage_class_name),
             Bind(7, "mountOptions", spec.mount_options), Bind(8, "volumeMode", spec.volume_mode),
             Bind(9, "nodeAffinity", spec.node_affinity, ReadNodeAffinity),
             Bind(10, "volumeAttributesClassName", spec.volume_attributes_class_name));
}

void ReadProto(WireReader& in, PersistentVolume& volume) {
  ReadFields(in, Bind(1, "metadata", volume.metadata), Bind(2, "spec", volume.spec),
             Bind(3, "status", volume.status));
}

}  // namespace kube
