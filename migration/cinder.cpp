#include "migration/cinder.h"

#include <string>

#include "migration/drivers.h"
#include "migration/topology.h"
#include "migration/topology_to_in_tree.h"

namespace migration {

kube::CSIPersistentVolumeSource TranslateCinder(const kube::CinderPersistentVolumeSource& source,
                                                kube::PersistentVolume& pv) {
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kCinderDriver);
  csi.volume_handle = source.volume_id;
  csi.fs_type = source.fs_type;
  csi.read_only = source.read_only;
  TranslateZoneTopology(pv, kCinderTopologyKey);
  return csi;
}

kube::CinderPersistentVolumeSource CinderFromCsi(const kube::CSIPersistentVolumeSource& csi,
                                                 kube::PersistentVolume& pv) {
  // Without a region parser the topology translation cannot fail.
  (void)TranslateZoneTopologyToInTree(pv, kCinderTopologyKey, nullptr);
  return kube::CinderPersistentVolumeSource{csi.volume_handle, csi.fs_type, csi.read_only};
}

}  // namespace migration
