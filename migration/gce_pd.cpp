#include "migration/gce_pd.h"

#include <cstdint>
#include <vector>

#include "migration/drivers.h"
#include "migration/partition.h"
#include "migration/split.h"
#include "migration/topology.h"
#include "migration/topology_to_in_tree.h"

namespace migration {
namespace {

constexpr std::string_view kReadWriteOnce = "ReadWriteOnce";
constexpr std::string_view kReadOnlyMany = "ReadOnlyMany";
constexpr std::string_view kReadWriteMany = "ReadWriteMany";
// Elements of projects/<project>/<zones|regions>/<where>/<disks|instances>/<name>.
constexpr size_t kHandleElements = 6;
constexpr size_t kProject = 1;
constexpr size_t kRegionality = 2;
constexpr size_t kWhere = 3;
constexpr size_t kName = 5;

std::string Handle(std::string_view project, std::string_view regionality, std::string_view where,
                   std::string_view disk) {
  std::string handle = "projects/";
  for (std::string_view part : {project, regionality, where}) {
    handle.append(part).append("/");
  }
  return handle.append("disks/").append(disk);
}

base::Result<std::string> HandleFromLabels(const kube::StringMap& labels,
                                           const std::string& pd_name) {
  auto label = labels.find(kBetaZoneLabel);
  if (label == labels.end() || label->second.empty()) label = labels.find(kGaZoneLabel);
  std::vector<std::string> zones =
      Split(label == labels.end() ? "" : label->second, kMultiZoneSeparator);
  if (zones.size() > 1) {
    auto region = GceRegionFromZones(zones);
    if (!region.ok()) return region.error().Wrap("failed to get region from zones");
    return Handle(kUnspecified, "regions", *region, pd_name);
  }
  std::string_view zone = zones[0].empty() ? kUnspecified : std::string_view(zones[0]);
  return Handle(kUnspecified, "zones", zone, pd_name);
}

// The <locale>-<region> of a zone <locale>-<region>-<zone>.
base::Result<std::string> GceRegionOf(const std::string& zone) {
  std::vector<std::string> parts = Split(zone, "-");
  if (parts.size() != 3) {
    return base::Error("zone in unexpected format, expected: {locale}-{region}-{zone}, got: " +
                       zone);
  }
  return parts[0] + "-" + parts[1];
}

}  // namespace

base::Result<std::string> GceRegionFromZones(const std::vector<std::string>& zones) {
  return CommonRegion(zones, GceRegionOf);
}

std::vector<std::string> GceAccessModes(const std::vector<std::string>& modes) {
  if (modes.empty()) return modes;
  bool read_write_once = false;
  bool read_only_many = false;
  for (const auto& mode : modes) {
    if (mode == kReadWriteOnce || mode == kReadWriteMany) read_write_once = true;
    if (mode == kReadOnlyMany) read_only_many = true;
  }
  if (read_only_many && !read_write_once) return {std::string(kReadOnlyMany)};
  return {std::string(kReadWriteOnce)};
}

base::Result<kube::CSIPersistentVolumeSource> TranslateGcePd(
    const kube::GCEPersistentDiskVolumeSource& source, kube::PersistentVolume& pv) {
  auto handle = HandleFromLabels(pv.metadata.labels, source.pd_name);
  if (!handle.ok()) return handle.error();
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kGcePdDriver);
  csi.volume_handle = std::move(*handle);
  csi.fs_type = source.fs_type;
  csi.read_only = source.read_only;
  csi.volume_attributes["partition"] =
      source.partition == 0 ? "" : std::to_string(source.partition);
  TranslateZoneTopology(pv, kGceTopologyKey);
  pv.spec.access_modes = GceAccessModes(pv.spec.access_modes);
  return csi;
}

base::Result<std::string> RepairGcePdHandle(std::string_view handle, std::string_view node_id) {
  std::vector<std::string> volume = Split(handle, "/");
  if (volume.size() < kHandleElements) {
    return base::Error("volume handle has wrong number of elements; got " +
                       std::to_string(volume.size()) + ", wanted 6 or more");
  }
  if (volume[kProject] != kUnspecified) return std::string(handle);
  std::vector<std::string> node = Split(node_id, "/");
  if (node.size() < kHandleElements) {
    return base::Error("node handle has wrong number of elements; got " +
                       std::to_string(node.size()) + ", wanted 6 or more");
  }
  const std::string& regionality = volume[kRegionality];
  const std::string& node_zone = node[kWhere];
  if (regionality == "zones") {
    const std::string& zone = volume[kWhere] == kUnspecified ? node_zone : volume[kWhere];
    return Handle(node[kProject], regionality, zone, volume[kName]);
  }
  if (regionality == "regions") {
    std::string region = volume[kWhere];
    if (region == kUnspecified) {
      auto from_zone = GceRegionFromZones({node_zone});
      if (!from_zone.ok())
        return from_zone.error().Wrap("failed to get region from zone " + node_zone);
      region = std::move(*from_zone);
    }
    return Handle(node[kProject], regionality, region, volume[kName]);
  }
  return base::Error("expected volume handle to have zones or regions regionality value, got: " +
                     regionality);
}

base::Result<kube::GCEPersistentDiskVolumeSource> GcePdFromCsi(
    const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume& pv) {
  std::vector<std::string> handle = Split(csi.volume_handle, "/");
  if (handle.size() < kHandleElements) {
    return base::Error("failed to get id components.Got: " + std::to_string(handle.size()) +
                       ", wanted 6 components or more. ");
  }
  auto partition = PartitionAttribute(csi.volume_attributes, EmptyPartition::kZero, "Failed");
  if (!partition.ok()) return partition.error();
  base::Status topology = TranslateZoneTopologyToInTree(pv, kGceTopologyKey, GceRegionFromZones);
  if (!topology.ok()) return TopologyToInTreeError(pv, topology.error());
  return kube::GCEPersistentDiskVolumeSource{handle[kName], csi.fs_type, *partition, csi.read_only};
}

}  // namespace migration
