// The objects the snapshot benchmark populates, all through the admin
// client, in one namespace: the VolumeSnapshotClass of the benchmark driver
// (policy Delete), source claims (bound_claim.h: a PVC Bound to a CSI PV, as
// a provisioner and the PV controller leave them) and VolumeSnapshots of
// them, either fresh (the controller and sidecar have work to do) or with
// their content as a completed snapshot leaves both (finalizers, binding,
// ready status).
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/client/client.h"

namespace bench {

inline constexpr const char* kSnapshotNamespace = "default";
inline constexpr const char* kSnapshotClassName = "bench-snapshots";
// The name the sidecars give the driver's snapshot of a VolumeSnapshot
// (default --snapshot-name-prefix, whole UID).
inline constexpr const char* kSnapshotNamePrefix = "snapshot";

base::Status CreateSnapshotClass(kube::Client& admin);

// PVC <name> Bound to PV <name>, whose CSI volume handle is `handle`.
base::Status CreateSource(kube::Client& admin, const std::string& name, const std::string& handle);

// VolumeSnapshot <name> of PVC <source> in the benchmark class; returns it
// as created (its UID names the content and the driver's snapshot).
base::Result<kube::VolumeSnapshot> CreateVolumeSnapshot(kube::Client& admin,
                                                        const std::string& name,
                                                        const std::string& source);

// VolumeSnapshot <name> of PVC <name> (CreateSource first) and its content
// "snapcontent-<uid>", as the controller and the sidecar leave them once the
// snapshot is ready: the snapshot's two finalizers, the content's finalizer
// and full reference, the content's status (handle "pre-<name>", ready) and
// the snapshot's status copied from it.
base::Status CreateReadySnapshot(kube::Client& admin, const std::string& name);

// VolumeSnapshotContent <name> of the benchmark class for the driver's
// volume `handle`, as the snapshot controller makes one for VolumeSnapshot
// <name> of UID `snapshot_uid` (no VolumeSnapshot exists: the sidecar only
// reads the reference, and names the driver's snapshot by the UID, so each
// content needs a UID of its own): the sidecar has to cut it and report it
// readyToUse.
base::Status CreateDynamicContent(kube::Client& admin, const std::string& name,
                                  const std::string& handle, const std::string& snapshot_uid);

base::Status DeleteVolumeSnapshot(kube::Client& admin, const std::string& name);

}  // namespace bench
