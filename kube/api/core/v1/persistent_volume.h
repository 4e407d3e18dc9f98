// PersistentVolume (core/v1), reduced to what attach, detach, finalizer
// handling and CSI migration read; its sources are in volume_sources.h.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

#include "kube/api/codec_extern.h"
#include "kube/api/core/v1/volume_sources.h"
#include "kube/api/field.h"
#include "kube/api/interned_string.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"
#include "kube/api/uid.h"

namespace kube {

namespace proto {
class WireReader;
}  // namespace proto

// The subset of an ObjectReference that a PV's claimRef needs. Binding
// compares namespace, name and uid; a provisioner writes the full reference
// of the claim it provisioned for (kind, apiVersion and resourceVersion too).
struct ClaimReference {
  std::string namespace_;
  std::string name;
  Uid uid;
  InternedString kind = {};
  InternedString api_version = {};
  std::string resource_version = {};

  bool operator==(const ClaimReference&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("kind", &ClaimReference::kind),
        Field("namespace", &ClaimReference::namespace_),
        Field("name", &ClaimReference::name),
        Field("uid", &ClaimReference::uid),
        Field("apiVersion", &ClaimReference::api_version),
        Field("resourceVersion", &ClaimReference::resource_version),
    };
  }
};

struct NodeSelectorRequirement {
  std::string key;
  std::string operator_;  // In, NotIn, Exists, DoesNotExist, Gt, Lt
  std::vector<std::string> values;

  bool operator==(const NodeSelectorRequirement&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("key", &NodeSelectorRequirement::key, Emit::kAlways),
        Field("operator", &NodeSelectorRequirement::operator_, Emit::kAlways),
        Field("values", &NodeSelectorRequirement::values),
    };
  }
};

// Topology is expressed with matchExpressions (node labels); matchFields
// name nodes by metadata.name (node_affinity.h).
struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields = {};

  bool operator==(const NodeSelectorTerm&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("matchExpressions", &NodeSelectorTerm::match_expressions),
        Field("matchFields", &NodeSelectorTerm::match_fields),
    };
  }
};

struct PersistentVolumeSpec;

// The hook (field.h) of PersistentVolumeSpec.source: the API inlines one
// member per source kind into the spec. The API server allows one; when
// several are present, the best-ranked is kept - an in-tree source first
// (upstream translates it, replacing any csi source), then csi, then another -
// and the rest are counted in extra_sources.
struct PersistentVolumeSourceField {
  // The sources kept whole, by rank.
  using Kept = std::tuple<GCEPersistentDiskVolumeSource, AWSElasticBlockStoreVolumeSource,
                          CinderPersistentVolumeSource, AzureDiskVolumeSource,
                          AzureFilePersistentVolumeSource, VsphereVirtualDiskVolumeSource,
                          PortworxVolumeSource, CSIPersistentVolumeSource>;
  static constexpr auto kKeys = []<class... Source>(std::tuple<Source...>*) {
    std::array<std::string_view, sizeof...(Source) + OtherVolumeSource::kJsonKeys.size()> keys{
        Source::kJsonKey...};
    std::copy(OtherVolumeSource::kJsonKeys.begin(), OtherVolumeSource::kJsonKeys.end(),
              keys.begin() + sizeof...(Source));
    return keys;
  }(static_cast<Kept*>(nullptr));

  template <class Codec>
  static void Decode(std::string_view key, const typename Codec::Value& value,
                     PersistentVolumeSpec& spec);
  template <class Codec>
  static void Encode(typename Codec::Object& object, const PersistentVolumeSpec& spec);

 private:
  template <class Codec, size_t I = 0>
  static PersistentVolumeSource DecodeSource(std::string_view key,
                                             const typename Codec::Value& value) {
    if constexpr (I == std::tuple_size_v<Kept>) {
      return OtherVolumeSource{std::string(key)};  // its content is not kept
    } else {
      using Source = std::tuple_element_t<I, Kept>;
      if (key != Source::kJsonKey) return DecodeSource<Codec, I + 1>(key, value);
      Source source;
      Codec::Decode(value, source);
      return source;
    }
  }
};

// Also the type of VolumeAttachment.spec.source.inlineVolumeSpec. The short
// values a cache repeats across its PVs (size, mode, policy, class) are
// interned: one pointer each instead of a std::string (docs/design.md §4).
struct PersistentVolumeSpec {
  InternedString capacity_storage;  // a resource.Quantity, e.g. "10Gi"
  std::vector<std::string> access_modes;
  InternedString volume_mode;  // "" = Filesystem
  std::vector<std::string> mount_options;
  std::optional<ClaimReference> claim_ref;
  InternedString persistent_volume_reclaim_policy;
  InternedString storage_class_name;
  InternedString volume_attributes_class_name = {};
  // nodeAffinity.required.nodeSelectorTerms; empty = no node affinity.
  std::vector<NodeSelectorTerm> node_affinity;
  PersistentVolumeSource source;
  // Source fields present in the JSON beyond the one kept in `source`. The API
  // server allows one, but a decoder must not hide a violation.
  uint8_t extra_sources = 0;

  // Number of volume source fields the JSON carried (0, 1, or more).
  int CountSources() const {
    return (std::holds_alternative<std::monostate>(source) ? 0 : 1) + extra_sources;
  }

  bool operator==(const PersistentVolumeSpec&) const = default;

  static constexpr auto Fields() {
    using S = PersistentVolumeSpec;
    return std::tuple{
        Field("capacity.storage", &S::capacity_storage),
        Field("accessModes", &S::access_modes),
        Field("volumeMode", &S::volume_mode),
        Field("mountOptions", &S::mount_options),
        Field("claimRef", &S::claim_ref),
        Field("persistentVolumeReclaimPolicy", &S::persistent_volume_reclaim_policy),
        Field("storageClassName", &S::storage_class_name),
        Field("volumeAttributesClassName", &S::volume_attributes_class_name),
        Field("nodeAffinity.required.nodeSelectorTerms", &S::node_affinity),
        PersistentVolumeSourceField{},
    };
  }
};

struct PersistentVolumeStatus {
  std::string phase;

  bool operator==(const PersistentVolumeStatus&) const = default;

  static constexpr auto Fields() {
    return std::tuple{Field("phase", &PersistentVolumeStatus::phase)};
  }
};

struct PersistentVolume {
  static constexpr KindFacts kFacts{.api_version = "v1",
                                    .kind = "PersistentVolume",
                                    .plural = "persistentvolumes",
                                    .scope = Scope::kCluster,
                                    .status_subresource = true};

  ObjectMeta metadata;
  PersistentVolumeSpec spec;
  PersistentVolumeStatus status;

  bool operator==(const PersistentVolume&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &PersistentVolume::metadata),
        Field("spec", &PersistentVolume::spec),
        Field("status", &PersistentVolume::status, Emit::kOmitZero),
    };
  }
};

// Keys arrive in kKeys order, by rank (field.h), so the first one found stays
// and later ones are only counted.
template <class Codec>
void PersistentVolumeSourceField::Decode(std::string_view key, const typename Codec::Value& value,
                                         PersistentVolumeSpec& spec) {
  if (!std::holds_alternative<std::monostate>(spec.source)) {
    ++spec.extra_sources;
    return;
  }
  spec.source = DecodeSource<Codec>(key, value);
}

template <class Codec>
void PersistentVolumeSourceField::Encode(typename Codec::Object& object,
                                         const PersistentVolumeSpec& spec) {
  std::visit(
      [&](const auto& source) {
        using S = std::decay_t<decltype(source)>;
        if constexpr (std::is_same_v<S, OtherVolumeSource>) {
          Codec::Put(object, source.name, source);
        } else if constexpr (!std::is_same_v<S, std::monostate>) {
          Codec::Put(object, S::kJsonKey, source);
        }
      },
      spec.source);
}

// Watches of this kind travel as protobuf (docs/design.md §4.1); the
// decoder is in kube/api/proto/core_v1.cpp.
void ReadProto(proto::WireReader& in, PersistentVolume& object);

KUBE_EXTERN_CODEC(PersistentVolume);
KUBE_EXTERN_CODEC(ObjectList<PersistentVolume>);

}  // namespace kube
