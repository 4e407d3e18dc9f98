#include "migration/cinder.h"

#include <string>

#include "migration/drivers.h"
#include "migration/topology.h"

namespace migration {

kube::CSIPersistentVolumeSource TranslateCinder(const kube::CinderPersistentVolumeSource& source,
                                                kube::PersistentVolume& pv) {
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kCinderDriver);
  csi.volume_handle = source.volume_id;
  csi.fs_type = source.fs_type;
  csi.read_only = source.read_only;
  TranslateZoneTopology(pv, "topology.cinder.csi.openstack.org/zone");
  return csi;
}

}  // namespace migration
