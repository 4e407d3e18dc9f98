#include "migration/to_in_tree.h"

#include <array>
#include <utility>

#include "migration/aws_ebs.h"
#include "migration/azure_disk.h"
#include "migration/azure_file.h"
#include "migration/cinder.h"
#include "migration/drivers.h"
#include "migration/gce_pd.h"
#include "migration/portworx.h"
#include "migration/vsphere_volume.h"

namespace migration {
namespace {

// Each translator returns the in-tree source for the CSI source of the PV,
// which it may rewrite otherwise (topology, annotations).
using InTreeTranslator = base::Result<kube::PersistentVolumeSource> (*)(
    const kube::CSIPersistentVolumeSource&, kube::PersistentVolume&);

// The in-tree source or the error of `translated`, as a PV source.
template <class Source>
base::Result<kube::PersistentVolumeSource> AsPvSource(base::Result<Source> translated) {
  if (!translated.ok()) return translated.error();
  return kube::PersistentVolumeSource(std::move(*translated));
}

constexpr std::array<std::pair<std::string_view, InTreeTranslator>, 7> kInTreeTranslators = {{
    {kGcePdDriver, [](const kube::CSIPersistentVolumeSource& csi,
                      kube::PersistentVolume& pv) { return AsPvSource(GcePdFromCsi(csi, pv)); }},
    {kAwsEbsDriver, [](const kube::CSIPersistentVolumeSource& csi,
                       kube::PersistentVolume& pv) { return AsPvSource(AwsEbsFromCsi(csi, pv)); }},
    {kCinderDriver,
     [](const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume& pv) {
       return AsPvSource<kube::CinderPersistentVolumeSource>(CinderFromCsi(csi, pv));
     }},
    {kAzureDiskDriver, [](const kube::CSIPersistentVolumeSource& csi,
                          kube::PersistentVolume&) { return AsPvSource(AzureDiskFromCsi(csi)); }},
    {kAzureFileDriver,
     [](const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume& pv) {
       return AsPvSource(AzureFileFromCsi(csi, pv));
     }},
    {kVsphereDriver,
     [](const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume& pv) {
       return AsPvSource<kube::VsphereVirtualDiskVolumeSource>(VsphereVolumeFromCsi(csi, pv));
     }},
    {kPortworxDriver,
     [](const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume&) {
       return AsPvSource<kube::PortworxVolumeSource>(PortworxFromCsi(csi));
     }},
}};

}  // namespace

base::Result<kube::PersistentVolume> TranslateCsiPvToInTree(const kube::PersistentVolume& pv) {
  const auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&pv.spec.source);
  if (csi == nullptr) return base::Error("CSI persistent volume was nil");
  for (const auto& [driver, translate] : kInTreeTranslators) {
    if (driver != csi->driver.str()) continue;
    kube::PersistentVolume translated = pv;
    auto source = translate(*csi, translated);
    if (!source.ok()) return source.error();
    translated.spec.source = std::move(*source);
    return translated;
  }
  return base::Error("could not find in-tree plugin translation logic for " +
                     std::string(csi->driver));
}

}  // namespace migration
