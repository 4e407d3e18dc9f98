#include "migration/azure_disk.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "migration/drivers.h"

namespace migration {
namespace {

constexpr std::string_view kManaged = "Managed";

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

}  // namespace

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

}  // namespace migration
