#include "migration/vsphere_volume.h"

#include <string>

#include "migration/drivers.h"
#include "migration/topology.h"

namespace migration {

kube::CSIPersistentVolumeSource TranslateVsphereVolume(
    const kube::VsphereVirtualDiskVolumeSource& source, kube::PersistentVolume& pv) {
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kVsphereDriver);
  csi.volume_handle = source.volume_path;
  csi.fs_type = source.fs_type;
  if (!source.storage_policy_name.empty()) {
    csi.volume_attributes["storagepolicyname"] = source.storage_policy_name;
  }
  TopologyLabels labels = ChooseTopologyLabels(pv);
  MoveTopology(pv, labels.zone, "topology.csi.vmware.com/zone", LabelValues::kWhole);
  MoveTopology(pv, labels.region, "topology.csi.vmware.com/region", LabelValues::kWhole);
  return csi;
}

}  // namespace migration
