#include "migration/vsphere_volume.h"

#include <array>
#include <string>
#include <utility>

#include "migration/allowed_topologies.h"
#include "migration/ascii.h"
#include "migration/drivers.h"
#include "migration/topology.h"
#include "migration/topology_to_in_tree.h"

namespace migration {
namespace {

constexpr std::string_view kVsphereZoneKey = "topology.csi.vmware.com/zone";
constexpr std::string_view kVsphereRegionKey = "topology.csi.vmware.com/region";
// The driver reports the in-tree volume path of a volume it provisioned for
// a migrated StorageClass (csimigration=true) in this attribute.
constexpr std::string_view kInitialVolumePathAttribute = "initialvolumefilepath";

// {in-tree parameter (lower case), the driver's name for it}; other
// parameters are dropped.
constexpr std::array<std::pair<std::string_view, std::string_view>, 10> kVsphereParameters = {{
    {"fstype", "csi.storage.k8s.io/fstype"},
    {"storagepolicyname", "storagepolicyname"},
    {"datastore", "datastore-migrationparam"},
    {"diskformat", "diskformat-migrationparam"},
    {"hostfailurestotolerate", "hostfailurestotolerate-migrationparam"},
    {"forceprovisioning", "forceprovisioning-migrationparam"},
    {"cachereservation", "cachereservation-migrationparam"},
    {"diskstripes", "diskstripes-migrationparam"},
    {"objectspacereservation", "objectspacereservation-migrationparam"},
    {"iopslimit", "iopslimit-migrationparam"},
}};

}  // namespace

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
  MoveTopology(pv, labels.zone, kVsphereZoneKey, LabelValues::kWhole);
  MoveTopology(pv, labels.region, kVsphereRegionKey, LabelValues::kWhole);
  return csi;
}

kube::VsphereVirtualDiskVolumeSource VsphereVolumeFromCsi(
    const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume& pv) {
  kube::VsphereVirtualDiskVolumeSource source;
  source.fs_type = csi.fs_type;
  auto path = csi.volume_attributes.find(kInitialVolumePathAttribute);
  if (path != csi.volume_attributes.end()) source.volume_path = path->second;
  TranslateVsphereTopologyToInTree(pv, kVsphereZoneKey, kVsphereRegionKey);
  return source;
}

kube::StorageClass TranslateVsphereStorageClass(kube::StorageClass storage_class) {
  kube::StringMap parameters;
  for (const auto& [key, value] : storage_class.parameters) {
    std::string name = LowerAscii(key);
    for (const auto& [in_tree, csi] : kVsphereParameters) {
      if (name == in_tree) parameters[csi] = value;
    }
  }
  // Tells the driver to report the in-tree volume path (see above).
  parameters["csimigration"] = "true";
  storage_class.parameters = std::move(parameters);
  RenameZoneKeys(storage_class.allowed_topologies, kVsphereZoneKey);
  return storage_class;
}

}  // namespace migration
