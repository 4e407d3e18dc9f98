// The CSI drivers that in-tree volume plugins migrate to (MIGRATION.md §1).
#pragma once

#include <string_view>

namespace migration {

inline constexpr std::string_view kGcePdDriver = "pd.csi.storage.gke.io";
inline constexpr std::string_view kAwsEbsDriver = "ebs.csi.aws.com";
inline constexpr std::string_view kCinderDriver = "cinder.csi.openstack.org";
inline constexpr std::string_view kAzureDiskDriver = "disk.csi.azure.com";
inline constexpr std::string_view kAzureFileDriver = "file.csi.azure.com";
inline constexpr std::string_view kVsphereDriver = "csi.vsphere.vmware.com";
inline constexpr std::string_view kPortworxDriver = "pxd.portworx.com";

// Whether `driver` is exactly one of the seven names above (upstream
// IsMigratedCSIDriverByName).
bool IsMigratedCsiDriverByName(std::string_view driver);

}  // namespace migration
