#include "kube/api/proto/core_v1.h"

#include <array>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>

#include "kube/api/proto/meta_v1.h"

namespace kube {
namespace {

using proto::ReadString;
using proto::WireReader;

void ReadSecretReference(WireReader& in, SecretReference& ref) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, ref.name);
        break;
      case 2:
        ReadString(in, ref.namespace_);
        break;
      default:
        in.Skip();
    }
  }
}

void ReadSource(WireReader& in, CSIPersistentVolumeSource& s) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, s.driver);
        break;
      case 2:
        ReadString(in, s.volume_handle);
        break;
      case 3:
        s.read_only = in.ReadBool();
        break;
      case 4:
        ReadString(in, s.fs_type);
        break;
      case 5:
        proto::ReadStringMapEntry(in, s.volume_attributes);
        break;
      case 6: {
        WireReader ref = in.ReadMessage();
        if (!s.controller_publish_secret_ref) s.controller_publish_secret_ref.emplace();
        ReadSecretReference(ref, *s.controller_publish_secret_ref);
        break;
      }
      default:
        in.Skip();
    }
  }
}

// GCE persistent disk and AWS EBS share their field numbers.
template <class Disk>
void ReadPartitionedDisk(WireReader& in, Disk& s, std::string& id) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, id);
        break;
      case 2:
        ReadString(in, s.fs_type);
        break;
      case 3:
        s.partition = in.ReadInt32();
        break;
      case 4:
        s.read_only = in.ReadBool();
        break;
      default:
        in.Skip();
    }
  }
}

void ReadSource(WireReader& in, GCEPersistentDiskVolumeSource& s) {
  ReadPartitionedDisk(in, s, s.pd_name);
}

void ReadSource(WireReader& in, AWSElasticBlockStoreVolumeSource& s) {
  ReadPartitionedDisk(in, s, s.volume_id);
}

void ReadSource(WireReader& in, CinderPersistentVolumeSource& s) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, s.volume_id);
        break;
      case 2:
        ReadString(in, s.fs_type);
        break;
      case 3:
        s.read_only = in.ReadBool();
        break;
      default:
        in.Skip();
    }
  }
}

void ReadSource(WireReader& in, AzureDiskVolumeSource& s) {
  while (in.Next()) {
    switch (in.field()) {
      case 2:
        ReadString(in, s.disk_uri);
        break;
      case 3:
        ReadString(in, s.caching_mode);
        break;
      case 4:
        ReadString(in, s.fs_type);
        break;
      case 5:
        s.read_only = in.ReadBool();
        break;
      case 6:
        ReadString(in, s.kind);
        break;
      default:
        in.Skip();
    }
  }
}

void ReadSource(WireReader& in, AzureFilePersistentVolumeSource& s) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, s.secret_name);
        break;
      case 2:
        ReadString(in, s.share_name);
        break;
      case 3:
        s.read_only = in.ReadBool();
        break;
      case 4:
        ReadString(in, s.secret_namespace);
        break;
      default:
        in.Skip();
    }
  }
}

void ReadSource(WireReader& in, VsphereVirtualDiskVolumeSource& s) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, s.volume_path);
        break;
      case 2:
        ReadString(in, s.fs_type);
        break;
      case 3:
        ReadString(in, s.storage_policy_name);
        break;
      default:
        in.Skip();
    }
  }
}

void ReadSource(WireReader& in, PortworxVolumeSource& s) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, s.volume_id);
        break;
      case 2:
        ReadString(in, s.fs_type);
        break;
      default:
        in.Skip();
    }
  }
}

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
            ((std::is_same_v<S, std::tuple_element_t<I, Kept>> ? (rank = I, true) : false) || ...);
            return rank;
          }
          (std::make_index_sequence<std::tuple_size_v<Kept>>());
        }
      },
      source);
}

// The JSON keys of the PersistentVolumeSource members that OtherVolumeSource
// stands for, by field number.
std::string_view OtherSourceName(uint32_t field) {
  switch (field) {
    case 3:
      return "hostPath";
    case 4:
      return "glusterfs";
    case 5:
      return "nfs";
    case 6:
      return "rbd";
    case 7:
      return "iscsi";
    case 9:
      return "cephfs";
    case 10:
      return "fc";
    case 11:
      return "flocker";
    case 12:
      return "flexVolume";
    case 15:
      return "quobyte";
    case 17:
      return "photonPersistentDisk";
    case 19:
      return "scaleIO";
    case 20:
      return "local";
    case 21:
      return "storageos";
    default:
      return {};
  }
}

template <class Source>
PersistentVolumeSource DecodeSource(WireReader& in, std::string_view name) {
  Source source;
  WireReader message = in.ReadMessage();
  WithParent(name, [&] { ReadSource(message, source); });
  return source;
}

// As the JSON decoder does (PersistentVolumeSourceField): one source is kept,
// the best-ranked, and the others are counted in extra_sources.
void ReadVolumeSource(WireReader& in, PersistentVolumeSpec& spec) {
  while (in.Next()) {
    PersistentVolumeSource source;
    switch (in.field()) {
      case 1:
        source = DecodeSource<GCEPersistentDiskVolumeSource>(in, "gcePersistentDisk");
        break;
      case 2:
        source = DecodeSource<AWSElasticBlockStoreVolumeSource>(in, "awsElasticBlockStore");
        break;
      case 8:
        source = DecodeSource<CinderPersistentVolumeSource>(in, "cinder");
        break;
      case 13:
        source = DecodeSource<AzureFilePersistentVolumeSource>(in, "azureFile");
        break;
      case 14:
        source = DecodeSource<VsphereVirtualDiskVolumeSource>(in, "vsphereVolume");
        break;
      case 16:
        source = DecodeSource<AzureDiskVolumeSource>(in, "azureDisk");
        break;
      case 18:
        source = DecodeSource<PortworxVolumeSource>(in, "portworxVolume");
        break;
      case 22:
        source = DecodeSource<CSIPersistentVolumeSource>(in, "csi");
        break;
      default:
        if (std::string_view name = OtherSourceName(in.field()); !name.empty()) {
          in.ReadBytes();  // a message, whose content is not kept
          source = OtherVolumeSource{std::string(name)};
        } else {
          in.Skip();
          continue;
        }
    }
    if (std::holds_alternative<std::monostate>(spec.source)) {
      spec.source = std::move(source);
      continue;
    }
    ++spec.extra_sources;
    if (RankOf(source) < RankOf(spec.source)) spec.source = std::move(source);
  }
}

void ReadCapacityEntry(WireReader& in, PersistentVolumeSpec& spec) {
  WireReader entry = in.ReadMessage();
  std::string_view key;
  std::string_view quantity;
  while (entry.Next()) {
    switch (entry.field()) {
      case 1:
        key = entry.ReadBytes();
        break;
      case 2: {
        WireReader value = entry.ReadMessage();  // resource.Quantity {string string = 1}
        while (value.Next()) {
          if (value.field() == 1) {
            quantity = value.ReadBytes();
          } else {
            value.Skip();
          }
        }
        break;
      }
      default:
        entry.Skip();
    }
  }
  if (key == "storage") spec.capacity_storage.assign(quantity);
}

void ReadClaimRef(WireReader& in, ClaimReference& ref) {
  while (in.Next()) {
    switch (in.field()) {
      case 2:
        ReadString(in, ref.namespace_);
        break;
      case 3:
        ReadString(in, ref.name);
        break;
      case 4:
        ReadString(in, ref.uid);
        break;
      default:
        in.Skip();
    }
  }
}

void ReadRequirement(WireReader& in, NodeSelectorRequirement& requirement) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, requirement.key);
        break;
      case 2:
        ReadString(in, requirement.operator_);
        break;
      case 3:
        requirement.values.emplace_back(in.ReadBytes());
        break;
      default:
        in.Skip();
    }
  }
}

void ReadTerm(WireReader& in, NodeSelectorTerm& term) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
      case 2: {
        auto& list = in.field() == 1 ? term.match_expressions : term.match_fields;
        WireReader requirement = in.ReadMessage();
        ReadRequirement(requirement, list.emplace_back());
        break;
      }
      default:
        in.Skip();
    }
  }
}

// VolumeNodeAffinity {NodeSelector required = 1 {repeated NodeSelectorTerm nodeSelectorTerms = 1}}.
void ReadNodeAffinity(WireReader& in, std::vector<NodeSelectorTerm>& terms) {
  while (in.Next()) {
    if (in.field() != 1) {
      in.Skip();
      continue;
    }
    WireReader required = in.ReadMessage();
    while (required.Next()) {
      if (required.field() != 1) {
        required.Skip();
        continue;
      }
      WireReader term = required.ReadMessage();
      ReadTerm(term, terms.emplace_back());
    }
  }
}

void ReadStatus(WireReader& in, PersistentVolumeStatus& status) {
  while (in.Next()) {
    if (in.field() == 1) {
      ReadString(in, status.phase);
    } else {
      in.Skip();
    }
  }
}

}  // namespace

void ReadProto(WireReader& in, PersistentVolumeSpec& spec) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        WithParent("capacity", [&] { ReadCapacityEntry(in, spec); });
        break;
      case 2: {
        WireReader source = in.ReadMessage();
        ReadVolumeSource(source, spec);
        break;
      }
      case 3:
        spec.access_modes.emplace_back(in.ReadBytes());
        break;
      case 4: {
        WireReader ref = in.ReadMessage();
        if (!spec.claim_ref) spec.claim_ref.emplace();
        WithParent("claimRef", [&] { ReadClaimRef(ref, *spec.claim_ref); });
        break;
      }
      case 5:
        ReadString(in, spec.persistent_volume_reclaim_policy);
        break;
      case 6:
        ReadString(in, spec.storage_class_name);
        break;
      case 7:
        spec.mount_options.emplace_back(in.ReadBytes());
        break;
      case 8:
        ReadString(in, spec.volume_mode);
        break;
      case 9: {
        WireReader affinity = in.ReadMessage();
        WithParent("nodeAffinity", [&] { ReadNodeAffinity(affinity, spec.node_affinity); });
        break;
      }
      default:
        in.Skip();
    }
  }
}

void ReadProto(WireReader& in, PersistentVolume& volume) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        proto::ReadNested(in, "metadata", volume.metadata);
        break;
      case 2:
        proto::ReadNested(in, "spec", volume.spec);
        break;
      case 3: {
        WireReader status = in.ReadMessage();
        WithParent("status", [&] { ReadStatus(status, volume.status); });
        break;
      }
      default:
        in.Skip();
    }
  }
}

}  // namespace kube
