// The strings of the csi-provisioner that a drop-in must read and write
// exactly as upstream does (docs/provisioner.md §3.2, §3.9, §4.1, §6): the
// annotations and finalizer of the PVs it makes, the claim annotations that
// say who provisions, the extra create metadata keys, the volume's name and
// the Lease.
#pragma once

#include <string>
#include <string_view>

namespace provisioner {

// Claims: which provisioner KCM's PV controller asked for (§3.1 step 2).
inline constexpr std::string_view kStorageProvisionerAnnotation =
    "volume.kubernetes.io/storage-provisioner";
inline constexpr std::string_view kBetaStorageProvisionerAnnotation =
    "volume.beta.kubernetes.io/storage-provisioner";
inline constexpr std::string_view kMigratedToAnnotation = "pv.kubernetes.io/migrated-to";
inline constexpr std::string_view kSelectedNodeAnnotation = "volume.kubernetes.io/selected-node";
// The class of a claim: the beta annotation wins over spec.storageClassName.
inline constexpr std::string_view kBetaStorageClassAnnotation =
    "volume.beta.kubernetes.io/storage-class";

// Our own (§9.1): on a claim while the driver may be making its volume and
// nobody knows the outcome, so the claim cannot vanish before it is known.
inline constexpr std::string_view kVolumeBeingCreatedFinalizer =
    "external-provisioner.volume.kubernetes.io/volume-being-created";
// Our own (§9.8): beside that finalizer, the accessibility requirements the
// CreateVolume whose outcome is unknown carried, so a restarted process asks
// for the same place (lib #152).
inline constexpr std::string_view kAccessibilityRecordAnnotation =
    "external-provisioner.volume.kubernetes.io/accessibility-requirements";

// Data sources (§3.7): the finalizers that keep a source while a volume is
// made from it, and the content annotation that allows a restore to change
// the volume mode.
inline constexpr std::string_view kCloneSourceFinalizer =
    "provisioner.storage.kubernetes.io/cloning-protection";
inline constexpr std::string_view kSnapshotSourceFinalizer =
    "provisioner.storage.kubernetes.io/volumesnapshot-as-source-protection";
inline constexpr std::string_view kAllowVolumeModeChangeAnnotation =
    "snapshot.storage.kubernetes.io/allow-volume-mode-change";

// PVs (§3.9).
inline constexpr std::string_view kProvisionedByAnnotation = "pv.kubernetes.io/provisioned-by";
inline constexpr std::string_view kDeletionSecretNameAnnotation =
    "volume.kubernetes.io/provisioner-deletion-secret-name";
inline constexpr std::string_view kDeletionSecretNamespaceAnnotation =
    "volume.kubernetes.io/provisioner-deletion-secret-namespace";
inline constexpr std::string_view kModifySecretNameAnnotation =
    "volume.kubernetes.io/controller-modify-secret-name";
inline constexpr std::string_view kModifySecretNamespaceAnnotation =
    "volume.kubernetes.io/controller-modify-secret-namespace";
inline constexpr std::string_view kVolumeFinalizer =
    "external-provisioner.volume.kubernetes.io/finalizer";
inline constexpr std::string_view kProvisionerIdentityAttribute =
    "storage.kubernetes.io/csiProvisionerIdentity";

// --extra-create-metadata (§3.3 step 10).
inline constexpr std::string_view kPvcNameKey = "csi.storage.k8s.io/pvc/name";
inline constexpr std::string_view kPvcNamespaceKey = "csi.storage.k8s.io/pvc/namespace";
inline constexpr std::string_view kPvNameKey = "csi.storage.k8s.io/pv/name";

// "<prefix>-<uid>" (§3.3 step 5), shortened as --volume-name-uuid-length says.
std::string VolumeName(std::string_view prefix, std::string_view uid, int uuid_length);

// The Lease replicas of one driver compete for (§6): the driver's name
// itself with '/' as '-', sanitized (kube::SanitizeName) - no prefix.
std::string LeaseNameFor(std::string_view driver);

}  // namespace provisioner
