#include "attacher/volume_source.h"

#include <string>
#include <string_view>
#include <variant>

namespace attacher {
namespace {

// Overload set for std::visit.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// The PV spec field holding `source`, as users write it in manifests.
std::string_view FieldName(const kube::PersistentVolumeSource& source) {
  return std::visit(
      Overloaded{
          [](const kube::GCEPersistentDiskVolumeSource&) -> std::string_view {
            return "gcePersistentDisk";
          },
          [](const kube::AWSElasticBlockStoreVolumeSource&) -> std::string_view {
            return "awsElasticBlockStore";
          },
          [](const kube::CinderPersistentVolumeSource&) -> std::string_view { return "cinder"; },
          [](const kube::AzureDiskVolumeSource&) -> std::string_view { return "azureDisk"; },
          [](const kube::AzureFilePersistentVolumeSource&) -> std::string_view {
            return "azureFile";
          },
          [](const kube::VsphereVirtualDiskVolumeSource&) -> std::string_view {
            return "vsphereVolume";
          },
          [](const kube::PortworxVolumeSource&) -> std::string_view { return "portworxVolume"; },
          [](const kube::OtherVolumeSource& other) -> std::string_view { return other.name; },
          [](const kube::CSIPersistentVolumeSource&) -> std::string_view { return "csi"; },
          [](const std::monostate&) -> std::string_view { return ""; },
      },
      source);
}

}  // namespace

base::Result<VolumeRef> VolumeOf(const kube::VolumeAttachment& va,
                                 const kube::Store<kube::PersistentVolume>& pvs) {
  const kube::VolumeAttachmentSource& source = va.spec.source;
  if (source.persistent_volume_name && source.inline_volume_spec) {
    return base::Error(
        "both InlineCSIVolumeSource and PersistentVolumeName specified in VA source");
  }
  if (source.inline_volume_spec) return VolumeRef{nullptr, source.inline_volume_spec};
  if (!source.persistent_volume_name) {
    return base::Error(
        "neither InlineCSIVolumeSource nor PersistentVolumeName specified in VA source");
  }
  auto pv = pvs.Get("", *source.persistent_volume_name);
  if (pv == nullptr) {
    // The text of a Go lister's NotFound error.
    return base::Error("persistentvolume \"" + *source.persistent_volume_name + "\" not found");
  }
  std::shared_ptr<const kube::PersistentVolumeSpec> spec(pv, &pv->spec);
  return VolumeRef{std::move(pv), std::move(spec)};
}

base::Result<const kube::CSIPersistentVolumeSource*> CsiSourceOf(
    const kube::PersistentVolumeSpec& spec) {
  if (spec.CountSources() > 1) {
    return base::Error("volume spec has more than one volume source");
  }
  if (const auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&spec.source)) return csi;
  if (std::holds_alternative<std::monostate>(spec.source)) {
    return base::Error("volume spec has no volume source");
  }
  std::string field(FieldName(spec.source));
  if (std::holds_alternative<kube::OtherVolumeSource>(spec.source)) {
    return base::Error("volume spec has a non-CSI volume source \"" + field + "\"");
  }
  return base::Error("CSI migration is not supported yet: in-tree \"" + field +
                     "\" volumes cannot be attached or detached");
}

}  // namespace attacher
