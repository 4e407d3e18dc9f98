#include "migration/gce_pd.h"

#include <set>
#include <vector>

#include "migration/drivers.h"
#include "migration/split.h"
#include "migration/topology.h"

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

// How Go prints the string set upstream collects the regions in.
std::string GoSetString(const std::set<std::string>& items) {
  std::string printed = "map[";
  for (const auto& item : items) printed += (printed.size() > 4 ? " " : "") + item + ":{}";
  return printed + "]";
}

// The region all `zones` (<locale>-<region>-<zone>) belong to.
base::Result<std::string> RegionOf(const std::vector<std::string>& zones) {
  std::set<std::string> regions;
  for (const auto& zone : zones) {
    std::vector<std::string> parts = Split(zone, "-");
    if (parts.size() != 3) {
      return base::Error("zone in unexpected format, expected: {locale}-{region}-{zone}, got: " +
                         zone);
    }
    regions.insert(parts[0] + "-" + parts[1]);
  }
  if (regions.size() != 1) {
    return base::Error("multiple or no regions gotten from zones, got: " + GoSetString(regions));
  }
  return *regions.begin();
}

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
    auto region = RegionOf(zones);
    if (!region.ok()) return region.error().Wrap("failed to get region from zones");
    return Handle(kUnspecified, "regions", *region, pd_name);
  }
  std::string_view zone = zones[0].empty() ? kUnspecified : std::string_view(zones[0]);
  return Handle(kUnspecified, "zones", zone, pd_name);
}

}  // namespace

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
      auto from_zone = RegionOf({node_zone});
      if (!from_zone.ok())
        return from_zone.error().Wrap("failed to get region from zone " + node_zone);
      region = std::move(*from_zone);
    }
    return Handle(node[kProject], regionality, region, volume[kName]);
  }
  return base::Error("expected volume handle to have zones or regions regionality value, got: " +
                     regionality);
}

}  // namespace migration
