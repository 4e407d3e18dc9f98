// In-tree -> CSI translation of PersistentVolumes, the part of
// k8s.io/csi-translation-lib the attacher uses (docs/migration.md §2 - §4). Pure
// functions of their arguments.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

// Whether `pv` has one of the seven in-tree sources with a CSI translation
// (upstream IsPVMigratable). Feature gates, CSINode annotations and the
// pv.kubernetes.io/migrated-to annotation play no part.
bool IsPvMigratable(const kube::PersistentVolume& pv);

// A copy of `pv` whose in-tree source is replaced by the equivalent CSI
// source; the translator of that source may also rewrite node affinity and
// access modes (upstream TranslateInTreePVToCSI). Every other field is kept.
// Errors: the translator's own (GCE regional zones, EBS aws:// IDs, Azure Disk
// kind, Azure File secret namespace), or `could not find in-tree plugin
// translation logic for "<pv name>"` when `pv` is not migratable.
base::Result<kube::PersistentVolume> TranslateInTreePvToCsi(const kube::PersistentVolume& pv);

// The handle to compare with the driver's ListVolumes for a translated volume
// of CSI driver `driver` attached to `node_id`: GCE PD fills in UNSPECIFIED
// parts from the node ID (see RepairGcePdHandle); the other drivers keep
// the handle. Error: "could not find In-Tree driver name for CSI plugin
// <driver>" for a driver that is not a migration target.
base::Result<std::string> RepairVolumeHandle(std::string_view driver, std::string_view handle,
                                             std::string_view node_id);

}  // namespace migration
