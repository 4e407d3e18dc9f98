// The in-tree volume plugins that migrate to CSI and their CSI drivers
// (docs/migration.md §1; Ceph RBD was dropped upstream in 1.31 and is not here).
#pragma once

#include <optional>
#include <string_view>

namespace migration {

inline constexpr std::string_view kGcePdDriver = "pd.csi.storage.gke.io";
inline constexpr std::string_view kAwsEbsDriver = "ebs.csi.aws.com";
inline constexpr std::string_view kCinderDriver = "cinder.csi.openstack.org";
inline constexpr std::string_view kAzureDiskDriver = "disk.csi.azure.com";
inline constexpr std::string_view kAzureFileDriver = "file.csi.azure.com";
inline constexpr std::string_view kVsphereDriver = "csi.vsphere.vmware.com";
inline constexpr std::string_view kPortworxDriver = "pxd.portworx.com";

inline constexpr std::string_view kGcePdPlugin = "kubernetes.io/gce-pd";
inline constexpr std::string_view kAwsEbsPlugin = "kubernetes.io/aws-ebs";
inline constexpr std::string_view kCinderPlugin = "kubernetes.io/cinder";
inline constexpr std::string_view kAzureDiskPlugin = "kubernetes.io/azure-disk";
inline constexpr std::string_view kAzureFilePlugin = "kubernetes.io/azure-file";
inline constexpr std::string_view kVspherePlugin = "kubernetes.io/vsphere-volume";
inline constexpr std::string_view kPortworxPlugin = "kubernetes.io/portworx-volume";

// The in-tree plugin (e.g. "kubernetes.io/gce-pd") that CSI driver `driver`
// replaces, by exact name; nullopt for any other driver.
std::optional<std::string_view> InTreePluginOf(std::string_view driver);

// Whether `driver` is exactly one of the seven drivers above (upstream
// IsMigratedCSIDriverByName): the attacher then labels its CSI metrics with
// `migrated`.
bool IsMigratedCsiDriverByName(std::string_view driver);

}  // namespace migration
