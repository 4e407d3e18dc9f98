// Full gRPC method names of the CSI calls this layer makes, as they appear
// in logs and in the method_name label of csi_sidecar_operations_seconds.
#pragma once

#include <string_view>

namespace csi {

inline constexpr std::string_view kGetPluginInfoMethod = "/csi.v1.Identity/GetPluginInfo";
inline constexpr std::string_view kGetPluginCapabilitiesMethod =
    "/csi.v1.Identity/GetPluginCapabilities";
inline constexpr std::string_view kProbeMethod = "/csi.v1.Identity/Probe";
inline constexpr std::string_view kControllerPublishVolumeMethod =
    "/csi.v1.Controller/ControllerPublishVolume";
inline constexpr std::string_view kControllerUnpublishVolumeMethod =
    "/csi.v1.Controller/ControllerUnpublishVolume";
inline constexpr std::string_view kListVolumesMethod = "/csi.v1.Controller/ListVolumes";
inline constexpr std::string_view kControllerGetCapabilitiesMethod =
    "/csi.v1.Controller/ControllerGetCapabilities";
inline constexpr std::string_view kCreateVolumeMethod = "/csi.v1.Controller/CreateVolume";
inline constexpr std::string_view kDeleteVolumeMethod = "/csi.v1.Controller/DeleteVolume";
inline constexpr std::string_view kCreateSnapshotMethod = "/csi.v1.Controller/CreateSnapshot";
inline constexpr std::string_view kDeleteSnapshotMethod = "/csi.v1.Controller/DeleteSnapshot";
inline constexpr std::string_view kListSnapshotsMethod = "/csi.v1.Controller/ListSnapshots";
inline constexpr std::string_view kGetCapacityMethod = "/csi.v1.Controller/GetCapacity";
inline constexpr std::string_view kControllerExpandVolumeMethod =
    "/csi.v1.Controller/ControllerExpandVolume";
inline constexpr std::string_view kControllerModifyVolumeMethod =
    "/csi.v1.Controller/ControllerModifyVolume";
inline constexpr std::string_view kNodeGetInfoMethod = "/csi.v1.Node/NodeGetInfo";
inline constexpr std::string_view kGroupControllerGetCapabilitiesMethod =
    "/csi.v1.GroupController/GroupControllerGetCapabilities";
inline constexpr std::string_view kCreateVolumeGroupSnapshotMethod =
    "/csi.v1.GroupController/CreateVolumeGroupSnapshot";
inline constexpr std::string_view kDeleteVolumeGroupSnapshotMethod =
    "/csi.v1.GroupController/DeleteVolumeGroupSnapshot";
inline constexpr std::string_view kGetVolumeGroupSnapshotMethod =
    "/csi.v1.GroupController/GetVolumeGroupSnapshot";

}  // namespace csi
