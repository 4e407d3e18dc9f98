#include "attacher/volume_source.h"

#include <string>
#include <string_view>
#include <variant>

#include "base/overloaded.h"
#include "migration/translate.h"

namespace attacher {
namespace {

// The PV spec field holding `source`, as users write it in manifests.
std::string_view FieldName(const kube::PersistentVolumeSource& source) {
  return std::visit(
      base::Overloaded{
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

base::Result<const kube::CSIPersistentVolumeSource*> CsiSourceOf(
    const kube::PersistentVolumeSpec& spec) {
  if (spec.CountSources() > 1) {
    return base::Error("volume spec has more than one volume source");
  }
  if (const auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&spec.source)) return csi;
  if (std::holds_alternative<std::monostate>(spec.source)) {
    return base::Error("volume spec has no volume source");
  }
  return base::Error("volume spec has a non-CSI volume source \"" +
                     std::string(FieldName(spec.source)) + "\"");
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

base::Result<CsiVolume> CsiVolumeOf(const VolumeRef& volume) {
  CsiVolume csi{volume.spec, nullptr};
  if (volume.pv != nullptr && migration::IsPvMigratable(*volume.pv)) {
    auto translated = migration::TranslateInTreePvToCsi(*volume.pv);
    if (!translated.ok()) return translated.error().Wrap("failed to translate in tree pv to CSI");
    auto pv = std::make_shared<const kube::PersistentVolume>(std::move(*translated));
    csi.spec = std::shared_ptr<const kube::PersistentVolumeSpec>(pv, &pv->spec);
    csi.migrated = true;
  }
  if (volume.pv == nullptr &&
      !std::holds_alternative<kube::CSIPersistentVolumeSource>(volume.spec->source)) {
    // Upstream reads inlineVolumeSpec.csi and nothing else (docs/migration.md §4).
    return base::Error("inline volume spec contains nil CSI source");
  }
  auto source = CsiSourceOf(*csi.spec);
  if (!source.ok()) return source.error();
  csi.source = *source;
  return csi;
}

}  // namespace attacher
