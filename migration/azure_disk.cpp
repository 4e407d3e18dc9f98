#include "migration/azure_disk.h"

#include <regex>
#include <string>

#include "migration/ascii.h"
#include "migration/drivers.h"

namespace migration {
namespace {

constexpr std::string_view kManaged = "Managed";
// Upstream's patterns (Go RE2; these use nothing ECMAScript reads otherwise),
// also quoted in its error.
constexpr char kManagedDiskPattern[] =
    ".*/subscriptions/(?:.*)/resourceGroups/(?:.*)/providers/Microsoft.Compute/disks/(.+)";
constexpr char kUnmanagedDiskPattern[] = "http(?:.*)://(?:.*)/vhds/(.+)";

// Unmanaged (blob) disks are named by an http(s) URL; anything else is a
// managed disk's resource ID.
bool IsManagedDiskUri(std::string_view uri) {
  return !(uri.size() > 4 && EqualsIgnoringCase(uri.substr(0, 4), "http"));
}

// Azure Disk zones are numbers within a region; a bare number is a region
// without zones, which the driver names "".
bool IsUnzonedRegionValue(const std::string& value) {
  return !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

base::Result<std::string> AzureDiskNameOf(const std::string& disk_uri) {
  static const std::regex kManagedDisk(kManagedDiskPattern);
  static const std::regex kUnmanagedDisk(kUnmanagedDiskPattern);
  bool managed = IsManagedDiskUri(disk_uri);
  std::smatch match;
  if (!std::regex_search(disk_uri, match, managed ? kManagedDisk : kUnmanagedDisk)) {
    return base::Error("could not get disk name from " + disk_uri + ", correct format: " +
                       (managed ? kManagedDiskPattern : kUnmanagedDiskPattern));
  }
  return match[1].str();
}

base::Result<kube::CSIPersistentVolumeSource> TranslateAzureDisk(
    const kube::AzureDiskVolumeSource& source) {
  if (source.kind && !EqualsIgnoringCase(*source.kind, kManaged)) {
    return base::Error("kind(" + *source.kind + ") is not supported in csi migration");
  }
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kAzureDiskDriver);
  csi.volume_handle = source.disk_uri;
  csi.volume_attributes["kind"] = std::string(kManaged);
  if (source.caching_mode) csi.volume_attributes["cachingmode"] = *source.caching_mode;
  if (source.fs_type) {
    csi.fs_type = *source.fs_type;
    csi.volume_attributes["fstype"] = *source.fs_type;
  }
  csi.read_only = source.read_only.value_or(false);
  return csi;
}

base::Result<kube::AzureDiskVolumeSource> AzureDiskFromCsi(
    const kube::CSIPersistentVolumeSource& csi) {
  auto disk_name = AzureDiskNameOf(csi.volume_handle);
  if (!disk_name.ok()) return disk_name.error();
  kube::AzureDiskVolumeSource source;
  source.disk_name = std::move(*disk_name);
  source.disk_uri = csi.volume_handle;
  source.fs_type = std::string(csi.fs_type);
  source.read_only = csi.read_only;
  source.kind = std::string(kManaged);
  // Attribute names are matched in any letter case; empty values are skipped.
  for (const auto& [key, value] : csi.volume_attributes) {
    if (value.empty()) continue;
    std::string name = LowerAscii(key);
    if (name == "cachingmode") source.caching_mode = value;
    if (name == "fstype") source.fs_type = value;
  }
  return source;
}

void ClearUnzonedAzureDiskValues(std::vector<kube::TopologySelectorTerm>& terms) {
  for (auto& term : terms) {
    for (auto& requirement : term.match_label_expressions) {
      if (requirement.key != kAzureDiskTopologyKey) continue;
      for (auto& value : requirement.values) {
        if (IsUnzonedRegionValue(value)) value.clear();
      }
    }
  }
}

}  // namespace migration
