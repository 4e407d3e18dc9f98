#include "provisioner/csi_view.h"

#include "csi_params/volumes.h"
#include "migration/translate.h"

namespace provisioner {

base::Result<CsiView> CsiViewOf(const kube::PersistentVolume& pv) {
  if (migration::IsPvMigratable(pv)) {
    auto translated = migration::TranslateInTreePvToCsi(pv);
    if (!translated.ok()) return translated.error();
    return CsiView{.source = *csi_params::CsiSourceOf(*translated), .migrated = true};
  }
  const kube::CSIPersistentVolumeSource* csi = csi_params::CsiSourceOf(pv);
  if (!csi) return base::Error("invalid CSI PV");
  return CsiView{.source = *csi, .migrated = false};
}

}  // namespace provisioner
