#include "migration/translate.h"

#include <type_traits>
#include <variant>

#include "base/overloaded.h"
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

// The CSI source for the in-tree source of `pv`, which the translators may
// rewrite otherwise (topology, access modes).
base::Result<kube::CSIPersistentVolumeSource> CsiSourceFor(kube::PersistentVolume& pv) {
  // Each translator reads its source before `pv.spec.source` is replaced.
  return std::visit(
      base::Overloaded{
          [&pv](const kube::GCEPersistentDiskVolumeSource& s)
              -> base::Result<kube::CSIPersistentVolumeSource> { return TranslateGcePd(s, pv); },
          [&pv](const kube::AWSElasticBlockStoreVolumeSource& s)
              -> base::Result<kube::CSIPersistentVolumeSource> { return TranslateAwsEbs(s, pv); },
          [&pv](const kube::CinderPersistentVolumeSource& s)
              -> base::Result<kube::CSIPersistentVolumeSource> { return TranslateCinder(s, pv); },
          [](const kube::AzureDiskVolumeSource& s)
              -> base::Result<kube::CSIPersistentVolumeSource> { return TranslateAzureDisk(s); },
          [&pv](const kube::AzureFilePersistentVolumeSource& s)
              -> base::Result<kube::CSIPersistentVolumeSource> {
            return TranslateAzureFile(s, pv);
          },
          [&pv](const kube::VsphereVirtualDiskVolumeSource& s)
              -> base::Result<kube::CSIPersistentVolumeSource> {
            return TranslateVsphereVolume(s, pv);
          },
          [&pv](const kube::PortworxVolumeSource& s)
              -> base::Result<kube::CSIPersistentVolumeSource> { return TranslatePortworx(s, pv); },
          [&pv](const auto&) -> base::Result<kube::CSIPersistentVolumeSource> {
            return base::Error("could not find in-tree plugin translation logic for \"" +
                               pv.metadata.name + "\"");
          },
      },
      pv.spec.source);
}

}  // namespace

bool IsPvMigratable(const kube::PersistentVolume& pv) {
  return std::visit(
      [](const auto& source) {
        using T = std::decay_t<decltype(source)>;
        return !std::is_same_v<T, std::monostate> &&
               !std::is_same_v<T, kube::CSIPersistentVolumeSource> &&
               !std::is_same_v<T, kube::OtherVolumeSource>;
      },
      pv.spec.source);
}

base::Result<kube::PersistentVolume> TranslateInTreePvToCsi(const kube::PersistentVolume& pv) {
  kube::PersistentVolume translated = pv;
  auto csi = CsiSourceFor(translated);
  if (!csi.ok()) return csi.error();
  translated.spec.source = std::move(*csi);
  return translated;
}

base::Result<std::string> RepairVolumeHandle(std::string_view driver, std::string_view handle,
                                             std::string_view node_id) {
  if (driver == kGcePdDriver) return RepairGcePdHandle(handle, node_id);
  if (IsMigratedCsiDriverByName(driver)) return std::string(handle);
  return base::Error("could not find In-Tree driver name for CSI plugin " + std::string(driver));
}

}  // namespace migration
